#!/usr/bin/env python
# ruff: noqa
# Bad: a shebang tool script; start method forced, still no guard. torch is the point of
# the script, so DLD006 does not apply to entry scripts.
import torch
import torch.multiprocessing as mp


def job(rank):
    return torch.zeros(rank)


mp.set_start_method("spawn")
mp.start_processes(job, nprocs=2)  # error: DLD026
