# Own corpus: the worker count from an environment variable defaulting to 0.
import os

import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.arange(6), batch_size=3, num_workers=int(os.getenv("WORKERS", "0")))
for b in loader:
    print(b.tolist())
