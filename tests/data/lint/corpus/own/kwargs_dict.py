# Own corpus: loader settings kept in a dict literal and unpacked with **.
import torch
from torch.utils.data import DataLoader, TensorDataset

loader_kwargs = {"batch_size": 4, "num_workers": 1, "pin_memory": False}
train_set = TensorDataset(torch.randn(8, 2))


def train(model, loader):
    for (x,) in loader:
        model(x).sum().backward()


model = torch.nn.Linear(2, 2)
train_loader = DataLoader(train_set, shuffle=True, **loader_kwargs)
train(model, train_loader)
