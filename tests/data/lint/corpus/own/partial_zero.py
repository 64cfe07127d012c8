# Own corpus: a partial loader factory without workers, iterated at module level.
import functools

import torch
from torch.utils.data import DataLoader

loader_fn = functools.partial(DataLoader, batch_size=2, shuffle=False, num_workers=0)
for b in loader_fn(torch.arange(4.0)):
    print(b)
