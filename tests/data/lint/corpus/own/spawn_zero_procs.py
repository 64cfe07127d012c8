# Own corpus: mp.spawn over the GPUs at module level; on a CPU-only machine nprocs is 0.
import torch.multiprocessing as mp

N_PROCS = 0


def worker(rank):
    print(rank)


mp.spawn(worker, nprocs=N_PROCS)
print("no processes to start")
