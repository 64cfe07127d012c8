# Own corpus: loader options in a dict without num_workers.
import torch
from torch.utils.data import DataLoader

opts = dict(batch_size=3, shuffle=True, drop_last=True)
loader = DataLoader(torch.arange(9.0), **opts)
for b in loader:
    print(b)
