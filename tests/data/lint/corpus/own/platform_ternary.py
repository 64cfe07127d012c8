# Own corpus: workers turned off on Windows only; macOS (spawn) still starts them.
import os

import torch
from torch.utils.data import DataLoader

workers = 0 if os.name == "nt" else 2
loader = DataLoader(list(range(10)), batch_size=5, num_workers=workers)
for batch in loader:
    print(batch.tolist())
