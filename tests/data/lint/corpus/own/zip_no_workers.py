# Own corpus: two worker-free loaders zipped at module level.
import torch
from torch.utils.data import DataLoader

a = DataLoader(torch.arange(4.0), batch_size=2)
b = DataLoader(torch.arange(4.0), batch_size=2, num_workers=0)
print([float((x + y).sum()) for x, y in zip(a, b)])
