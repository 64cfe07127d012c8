# Own corpus: parse_known_args (extra launcher flags tolerated), workers default 1.
import argparse

import torch
import torch.utils.data as data

ap = argparse.ArgumentParser()
ap.add_argument("--data-workers", dest="workers", type=int, default=1)
ap.add_argument("--bs", type=int, default=4)
opts, _unknown = ap.parse_known_args()

loader = data.DataLoader(data.TensorDataset(torch.randn(8, 2)), batch_size=opts.bs,
                         num_workers=opts.workers)
for (x,) in loader:
    print(x.sum().item())
