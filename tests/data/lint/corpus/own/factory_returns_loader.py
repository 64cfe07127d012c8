# Own corpus: a factory returns a worker loader at module level; iteration is guarded.
import torch
from torch.utils.data import DataLoader, TensorDataset


def build(workers=2):
    return DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=workers)


loader = build()
steps = len(loader)

if __name__ == "__main__":
    for (x,) in loader:
        print(x.shape, steps)
