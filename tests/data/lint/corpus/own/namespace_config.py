# Own corpus: hyper-parameters in a SimpleNamespace, the loop at module level.
from types import SimpleNamespace

import torch
from torch.utils.data import DataLoader, TensorDataset

cfg = SimpleNamespace(lr=0.1, batch_size=4, num_workers=2, epochs=1)
data = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
loader = DataLoader(data, batch_size=cfg.batch_size, num_workers=cfg.num_workers)
model = torch.nn.Linear(2, 1)
optim = torch.optim.SGD(model.parameters(), lr=cfg.lr)
for epoch in range(cfg.epochs):
    for x, y in loader:
        optim.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optim.step()
