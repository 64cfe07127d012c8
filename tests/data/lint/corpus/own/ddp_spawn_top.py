# Own corpus: a DDP-style launcher with gloo on CPU, mp.spawn at module level.
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    t = torch.ones(1) * rank
    dist.all_reduce(t)
    dist.destroy_process_group()


WORLD_SIZE = 2
mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
