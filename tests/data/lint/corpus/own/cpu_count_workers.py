# Own corpus: workers from the CPU count, capped; the loop runs at module level.
import os

import torch
from torch.utils.data import DataLoader

workers = min(2, os.cpu_count() or 1)
loader = DataLoader(torch.arange(8.0), batch_size=4, num_workers=workers)
for batch in loader:
    print(batch.mean().item())
