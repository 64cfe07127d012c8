# Own corpus: a project DataLoader subclass with default workers, iterated at module level.
import torch
from torch.utils.data import DataLoader


class FastLoader(DataLoader):
    def __init__(self, dataset, batch_size=4):
        super().__init__(dataset, batch_size=batch_size, num_workers=2, persistent_workers=True)


loader = FastLoader(torch.randn(8, 2))
print(sum(1 for _ in loader))
