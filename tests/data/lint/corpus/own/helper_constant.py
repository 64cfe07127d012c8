# Own corpus: the worker count is a module constant passed through a helper.
import torch
from torch.utils.data import DataLoader, TensorDataset

NUM_WORKERS = 2
BATCH = 4


def make_loader(ds, workers, shuffle=False):
    return DataLoader(ds, batch_size=BATCH, shuffle=shuffle, num_workers=workers)


data = TensorDataset(torch.randn(12, 3))
train_loader = make_loader(data, NUM_WORKERS, shuffle=True)
seen = 0
for (x,) in train_loader:
    seen += x.shape[0]
print("seen", seen)
