# Own corpus: torch.multiprocessing.spawn under the guard, setup at module level.
import torch
import torch.multiprocessing as mp

SHARED = torch.zeros(2)


def worker(rank, n):
    print("rank", rank, "of", n)


if __name__ == "__main__":
    mp.spawn(worker, args=(2,), nprocs=2)
