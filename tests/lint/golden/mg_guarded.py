# ruff: noqa
# Good: the guarded idioms. Shape of itsadeepizza/nlp babyGPT/main.py and
# cucy/learnlanguage 10_map.py (public code corpus): work in functions called only under
# `if __name__ == "__main__":`.
import multiprocessing as mp

import torch
from torch.utils.data import DataLoader

NUM_WORKERS = 0
dataset = list(range(32))

# Created at import time but only iterated under the guard: creating starts no worker.
shared_loader = DataLoader(dataset, batch_size=4, num_workers=4)
# No workers: nothing to start.
debug_loader = DataLoader(dataset, batch_size=4, num_workers=0)
const_loader = DataLoader(dataset, batch_size=4, num_workers=NUM_WORKERS)
plain_loader = DataLoader(dataset, batch_size=4)
for _ in debug_loader:
    pass


def work(x):
    return x + 1


def main():
    with mp.Pool(2) as pool:
        pool.map(work, range(4))
    for _ in shared_loader:
        pass


def never_called():
    mp.Process(target=work, args=(1,)).start()


if __name__ == "__main__":
    mp.freeze_support()
    main()
    torch.multiprocessing.spawn(work, nprocs=2)
