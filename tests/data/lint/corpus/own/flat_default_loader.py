# Own corpus: a DataLoader without num_workers (so none), iterated at module level.
import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.arange(10.0), batch_size=5, shuffle=False)
for i, batch in enumerate(loader):
    print(i, batch.sum().item())
