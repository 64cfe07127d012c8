# Own corpus: a helper decides the worker count (0 when debugging, which is off).
import torch
from torch.utils.data import DataLoader

DEBUG = False


def num_workers():
    return 0 if DEBUG else 2


loader = DataLoader(torch.arange(4.0), batch_size=2, num_workers=num_workers())
for b in loader:
    print(b)
