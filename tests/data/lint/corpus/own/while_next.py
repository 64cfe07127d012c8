# Own corpus: an iterator advanced by hand in a while loop (a step-based trainer).
import torch
from torch.utils.data import DataLoader

loader = DataLoader(torch.randn(8, 2), batch_size=2, num_workers=1)
it = iter(loader)
step = 0
while step < 3:
    batch = next(it)
    step += 1
print("steps", step)
