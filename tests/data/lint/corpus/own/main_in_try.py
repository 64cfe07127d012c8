# Own corpus: main() under the guard wrapped in try/except KeyboardInterrupt.
import torch
from torch.utils.data import DataLoader


def main():
    loader = DataLoader(torch.arange(6.0), batch_size=2, num_workers=1)
    for b in loader:
        print(b.tolist())


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted")
