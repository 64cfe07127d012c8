# Own corpus: a trainer class with a worker loader, used only under the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, workers=2):
        ds = TensorDataset(torch.randn(8, 2))
        self.loader = DataLoader(ds, batch_size=4, num_workers=workers)

    def fit(self):
        for (x,) in self.loader:
            x.sum()


trainer = Trainer()

if __name__ == "__main__":
    trainer.fit()
