# Own corpus: an argparse CLI; the worker default is 2 and the loop is at module level.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser(description="toy trainer")
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--batch-size", type=int, default=4)
parser.add_argument("--num-workers", type=int, default=2)
args = parser.parse_args()

ds = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
loader = DataLoader(ds, batch_size=args.batch_size, num_workers=args.num_workers)
net = torch.nn.Linear(2, 1)
for epoch in range(args.epochs):
    for x, y in loader:
        net(x).sum().backward()
print("trained")
