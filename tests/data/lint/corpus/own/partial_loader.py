# Own corpus: a loader factory made with functools.partial.
from functools import partial

import torch
from torch.utils.data import DataLoader

make_loader = partial(DataLoader, batch_size=4, num_workers=1)
val_loader = make_loader(torch.randn(8, 3))
with torch.no_grad():
    for x in val_loader:
        print(x.norm().item())
