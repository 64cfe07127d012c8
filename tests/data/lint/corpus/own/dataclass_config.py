# Own corpus: a dataclass config with defaults; the training loop runs at import.
from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainConfig:
    batch_size: int = 4
    num_workers: int = 2
    epochs: int = 1


cfg = TrainConfig()
ds = TensorDataset(torch.randn(8, 3))
loader = DataLoader(ds, batch_size=cfg.batch_size, num_workers=cfg.num_workers)
for epoch in range(cfg.epochs):
    for (x,) in loader:
        pass
print("epochs done")
