# Own corpus: a data check with a list comprehension over the loader.
import torch
from torch.utils.data import DataLoader, TensorDataset

images = TensorDataset(torch.rand(6, 1, 4, 4))
loader = DataLoader(images, batch_size=2, num_workers=1)
shapes = [tuple(x.shape) for (x,) in loader]
assert all(s[1:] == (1, 4, 4) for s in shapes)
print("ok", shapes[0])
