# Own corpus: a small eval script materialising every batch with list().
import torch
from torch.utils.data import DataLoader

values = [torch.tensor([float(i)]) for i in range(8)]
eval_loader = DataLoader(values, batch_size=4, num_workers=1)
batches = list(eval_loader)
print(len(batches), torch.cat(batches).sum())
