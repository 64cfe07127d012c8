# Own corpus: loaders built at module level, iterated only in main() under the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset

train_loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=4, num_workers=2)
val_loader = DataLoader(TensorDataset(torch.randn(4, 2)), batch_size=4, num_workers=1)
model = torch.nn.Linear(2, 1)


def main():
    for (x,) in train_loader:
        model(x).sum().backward()
    with torch.no_grad():
        for (x,) in val_loader:
            print(model(x).mean().item())


if __name__ == "__main__":
    main()
