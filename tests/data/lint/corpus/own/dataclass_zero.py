# Own corpus: a dataclass config whose num_workers default is 0.
from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader


@dataclass
class Cfg:
    batch_size: int = 2
    num_workers: int = 0


cfg = Cfg()
for batch in DataLoader(torch.arange(4.0), batch_size=cfg.batch_size, num_workers=cfg.num_workers):
    print(batch)
