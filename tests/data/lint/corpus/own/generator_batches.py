# Own corpus: a generator that yields batches from a loader, consumed at module level.
import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.randn(9, 2), batch_size=3, num_workers=1)


def stream():
    for batch in loader:
        yield batch.mean(dim=0)


means = [m for m in stream()]
print(len(means))
