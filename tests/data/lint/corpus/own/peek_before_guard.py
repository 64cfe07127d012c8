# Own corpus: one batch peeked at module level just above the guard.
import torch
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.arange(10.0).unsqueeze(1))
loader = DataLoader(dataset, batch_size=5, num_workers=1)
sample = next(iter(loader))
print("input shape", sample[0].shape)


def main():
    for (batch,) in loader:
        print(batch.mean())


if __name__ == "__main__":
    main()
