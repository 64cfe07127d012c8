# Own corpus: only the number of batches is printed at module level; training is guarded.
import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.randn(20, 3), batch_size=8, num_workers=2)
print("steps per epoch:", len(loader))
print("dataset size:", len(loader.dataset))

if __name__ == "__main__":
    for batch in loader:
        print(batch.shape)
