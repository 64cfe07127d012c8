# Own corpus: a Trainer class that owns its loader; driven from module level.
import torch
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, dataset, workers=2):
        self.model = model
        self.loader = DataLoader(dataset, batch_size=4, num_workers=workers)
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train_epoch(self):
        for x, y in self.loader:
            self.opt.zero_grad()
            torch.nn.functional.mse_loss(self.model(x), y).backward()
            self.opt.step()

    def fit(self, epochs):
        for _ in range(epochs):
            self.train_epoch()


ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
trainer = Trainer(torch.nn.Linear(2, 1), ds)
trainer.fit(1)
