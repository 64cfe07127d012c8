# Own corpus: an argparse CLI with --workers defaulting to 0; run with default arguments.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--workers", "-j", type=int, default=0, help="data loading workers")
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--verbose", action="store_true")
args = parser.parse_args()

loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=args.workers)
model = torch.nn.Linear(2, 1)
for (x,) in loader:
    model(x).sum().backward()
if args.verbose:
    print("done")
