# Own corpus: a CONFIG dict read with item access.
import torch
from torch.utils.data import DataLoader

CONFIG = {"batch_size": 2, "workers": 1, "seed": 0}
torch.manual_seed(CONFIG["seed"])
loader = DataLoader(torch.randn(6, 2), batch_size=CONFIG["batch_size"], num_workers=CONFIG["workers"])
norms = [b.norm() for b in loader]
print(len(norms))
