# Own corpus: an evaluation helper with a worker loader that the script never calls.
import torch
from torch.utils.data import DataLoader


def evaluate(ds):
    loader = DataLoader(ds, batch_size=2, num_workers=2)
    return [b.sum() for b in loader]


data = torch.randn(6, 2)
print("prepared", data.shape)
