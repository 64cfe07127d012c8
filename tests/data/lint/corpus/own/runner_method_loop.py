# Own corpus: an experiment runner object; run() builds the loader and trains.
import torch
from torch.utils.data import DataLoader, TensorDataset


class Experiment:
    def __init__(self, workers):
        self.workers = workers
        self.model = torch.nn.Linear(3, 1)

    def loader(self):
        ds = TensorDataset(torch.randn(6, 3))
        return DataLoader(ds, batch_size=3, num_workers=self.workers)

    def run(self):
        for (x,) in self.loader():
            self.model(x)
        return "ok"


for workers in [0, 1]:
    print(workers, Experiment(workers).run())
