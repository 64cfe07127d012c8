# ruff: noqa
# Bad: paddle before torch (nghuyong/ERNIE-Pytorch#16: segmentation fault).
import paddle
import numpy as np

if __name__ == "__main__":
    import torchvision  # error: DLD004
    print(paddle, np, torchvision)
