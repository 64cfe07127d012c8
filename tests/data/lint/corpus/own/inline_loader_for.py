# Own corpus: a loader built inline in the for statement at module level.
import torch
from torch.utils.data import DataLoader, TensorDataset

features = TensorDataset(torch.randn(6, 2))
for (x,) in DataLoader(features, batch_size=3, num_workers=1):
    print(x.shape)
