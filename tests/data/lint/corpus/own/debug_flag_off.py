# Own corpus: a worker loader inspected only when a module-level DEBUG flag is on (it is off).
import torch
from torch.utils.data import DataLoader

DEBUG = False
loader = DataLoader(torch.randn(6, 2), batch_size=3, num_workers=2)
if DEBUG:
    for batch in loader:
        print(batch)


def main():
    for batch in loader:
        print(batch.shape)


if __name__ == "__main__":
    main()
