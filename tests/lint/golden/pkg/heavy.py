# ruff: noqa
# Bad: the noisereduce shape of seed 000 (timsainb/noisereduce imports torch at module
# level for one optional GPU path): torch and tensorflow loaded on import for one function.
import numpy as np
import torch  # error: DLD006
import torch.nn.functional as F

try:
    import tensorflow as tf  # error: DLD006
except ImportError:
    tf = None


def reduce_noise(y, use_torch=False):
    if use_torch:
        t = torch.as_tensor(y)
        return F.relu(t).numpy()
    return np.abs(y)


class Exporter:
    def export(self, y):
        return tf.constant(y)
