# Own corpus: a loader built at module level; only its dataset and sampler are inspected.
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(10, 2)), batch_size=5, num_workers=4)
print(type(loader.dataset).__name__, len(loader.dataset), loader.batch_size)
