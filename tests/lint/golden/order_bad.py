# ruff: noqa
# Bad: a GUI toolkit loaded before torch (seed 000; the shape of
# JiaxinWang123/StoManager1 issue #50's main.py before its fix, pytorch/pytorch#166628).
import sys

from PyQt5 import QtWidgets
import torch  # error: DLD004


def main():
    app = QtWidgets.QApplication(sys.argv)
    return torch.zeros(1), app


if __name__ == "__main__":
    main()
