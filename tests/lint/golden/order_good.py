# ruff: noqa
# Good: torch first (the fix of StoManager1#50), then the GUI and OpenCV.
import sys

import torch
from PyQt5 import QtWidgets
import cv2
import paddle


def late():
    import tensorflow  # inside a function: not part of the import-time order
    import torch as t2

    return tensorflow, t2


if __name__ == "__main__":
    print(torch, QtWidgets, cv2, paddle, sys.argv)
