# ruff: noqa
# Bad: the noisereduce shape of seed 000 (timsainb/noisereduce: torch is an optional extra,
# imported at module level when installed, for one GPU code path): torch and tensorflow
# loaded on import, each for one function, although the package works without them.
import importlib.util

import numpy as np

try:
    import torch  # error: DLD006
    import torch.nn.functional as F
except ImportError:
    torch = None

if importlib.util.find_spec("tensorflow") is not None:
    import tensorflow as tf  # error: DLD006


def reduce_noise(y, use_torch=False):
    if use_torch and torch is not None:
        t = torch.as_tensor(y)
        return F.relu(t).numpy()
    return np.abs(y)


class Exporter:
    def export(self, y):
        return tf.constant(y)
