# Own corpus: a train loop and a validation loop, both at module level.
import torch
from torch.utils.data import DataLoader, TensorDataset

train = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=1)
val = DataLoader(TensorDataset(torch.randn(4, 2)), batch_size=4, num_workers=1)
model = torch.nn.Linear(2, 1)
for (x,) in train:
    model(x).sum().backward()
with torch.no_grad():
    for (x,) in val:
        print(model(x).mean())
