# Own corpus: a flat training script with num_workers=0.
import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.randn(16, 4), torch.randn(16, 1))
loader = DataLoader(ds, batch_size=4, shuffle=True, num_workers=0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
print("done")
