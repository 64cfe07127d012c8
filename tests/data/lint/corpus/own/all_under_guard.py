# Own corpus: the usual structure: main() does everything, called under the guard.
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    return p.parse_args()


def main():
    args = parse()
    loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=args.workers)
    for (x,) in loader:
        print(x.sum().item())


if __name__ == "__main__":
    main()
