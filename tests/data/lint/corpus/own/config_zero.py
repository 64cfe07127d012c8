# Own corpus: a config dict with num_workers 0, unpacked into the loader.
import torch
from torch.utils.data import DataLoader

CFG = {"loader": {"batch_size": 2, "num_workers": 0}}
loader = DataLoader(torch.arange(6.0), **CFG["loader"])
print([b.tolist() for b in loader])
