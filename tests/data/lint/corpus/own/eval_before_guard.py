# Own corpus: a quick sanity evaluation at module level, the training under the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.Linear(2, 1)
val_loader = DataLoader(TensorDataset(torch.randn(6, 2)), batch_size=3, num_workers=1)


@torch.no_grad()
def evaluate(m, loader):
    return sum(float(m(x).sum()) for (x,) in loader)


print("initial score", evaluate(model, val_loader))

if __name__ == "__main__":
    print("training would start here")
