# Own corpus: the worker count from an environment variable with a default of 2.
import os

import torch
from torch.utils.data import DataLoader

NUM_WORKERS = int(os.environ.get("NUM_WORKERS", "2"))
loader = DataLoader(torch.arange(6), batch_size=2, num_workers=NUM_WORKERS)
for b in loader:
    print(b)
