# ruff: noqa
# Good: a plain `import torch` in a library built on torch (the shape of
# accelerate/launchers.py and mmdet/utils/setup_env.py in the survey): the package requires
# torch, so importing it at module level is not a transitive-import finding.
import torch

try:
    import paddle
except ImportError:
    paddle = None


def launch():
    return torch.cuda.device_count()


def one():
    return paddle.to_tensor([1])


def two():
    return paddle.to_tensor([2])
