# Own corpus: a flat training script, the epoch loop at module level.
import torch
from torch.utils.data import DataLoader, TensorDataset

xs = torch.randn(16, 4)
ys = torch.randn(16, 1)
train_ds = TensorDataset(xs, ys)
train_loader = DataLoader(train_ds, batch_size=4, shuffle=True, num_workers=1)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(1):
    for x, y in train_loader:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
print("done", loss.item())
