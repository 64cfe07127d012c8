# Own corpus: a worker-free warm-up at module level, the real training under the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.randn(8, 2))
warmup = DataLoader(ds, batch_size=8)
for (x,) in warmup:
    mean = x.mean(dim=0)
print("feature mean", mean)


def train():
    loader = DataLoader(ds, batch_size=4, num_workers=2)
    for (x,) in loader:
        (x - mean).sum()


if __name__ == "__main__":
    train()
