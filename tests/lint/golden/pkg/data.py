# ruff: noqa
# Good: a library module (package, no guard, no shebang, no argv): never run as a script,
# so its import-time DataLoader is not a main-guard finding.
import torch
from torch.utils.data import DataLoader

default_loader = DataLoader(list(range(8)), num_workers=2)
for _ in default_loader:
    pass


def make(ds):
    return torch.utils.data.DataLoader(ds, num_workers=4)
