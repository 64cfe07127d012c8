# Own corpus: a helper builds the loader from a module constant that is 0.
import torch
from torch.utils.data import DataLoader, TensorDataset

WORKERS = 0


def get_loader(ds, workers=WORKERS, batch_size=4):
    return DataLoader(ds, batch_size=batch_size, num_workers=workers)


loader = get_loader(TensorDataset(torch.randn(8, 3)))
for (x,) in loader:
    print(x.shape)
