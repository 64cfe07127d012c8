# ruff: noqa
# Good: torch used at module level or in several functions; a local import; typing only.
from typing import TYPE_CHECKING

import torch
import paddle

if TYPE_CHECKING:
    import tensorflow

DEVICE = torch.device("cpu")


def one():
    return paddle.to_tensor([1])


def two():
    return paddle.to_tensor([2])


def local():
    import jax

    return jax


def typed(x: "tensorflow.Tensor"):
    return x
