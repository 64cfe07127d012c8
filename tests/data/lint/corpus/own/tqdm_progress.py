# Own corpus: a tqdm progress bar over the loader at module level.
import torch
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

loader = DataLoader(TensorDataset(torch.randn(8, 3)), batch_size=2, num_workers=1)
running = 0.0
for (x,) in tqdm(loader, desc="epoch 0", disable=True):
    running += float(x.abs().mean())
print(running)
