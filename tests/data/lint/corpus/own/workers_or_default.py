# Own corpus: `args.workers or 2`: no flag given means 2 workers.
import argparse

import torch
from torch.utils.data import DataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int)
args = parser.parse_args()
loader = DataLoader(torch.arange(4), batch_size=2, num_workers=args.workers or 2)
print([b.tolist() for b in loader])
