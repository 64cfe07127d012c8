# Own corpus: helpers train_one_epoch / evaluate, the epoch loop at module level.
import torch
from torch.utils.data import DataLoader, TensorDataset


def train_one_epoch(model, loader, opt):
    model.train()
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum(float(torch.nn.functional.mse_loss(model(x), y)) for x, y in loader)


train_ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
train_loader = DataLoader(train_ds, batch_size=4, num_workers=1)
val_loader = DataLoader(train_ds, batch_size=4, num_workers=0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(1):
    train_one_epoch(model, train_loader, opt)
    print(epoch, evaluate(model, val_loader))
