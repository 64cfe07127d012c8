# Own corpus: a main() function, called at the bottom without the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset


def build_data():
    return TensorDataset(torch.randn(10, 3), torch.randint(0, 2, (10,)))


def main():
    loader = DataLoader(build_data(), batch_size=5, num_workers=1)
    clf = torch.nn.Linear(3, 2)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(clf(x), y)
        loss.backward()
    print("loss", float(loss))


main()
