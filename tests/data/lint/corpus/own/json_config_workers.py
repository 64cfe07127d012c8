# Own corpus: settings parsed from a JSON text; the file alone cannot say how many workers.
import json

import torch
from torch.utils.data import DataLoader

SETTINGS = json.loads('{"batch_size": 2, "num_workers": 1}')
loader = DataLoader(torch.arange(6.0), batch_size=SETTINGS["batch_size"],
                    num_workers=SETTINGS["num_workers"])
for b in loader:
    print(b.tolist())
