# Own corpus: torch.multiprocessing.start_processes from a launch() helper, no guard.
import torch.multiprocessing as tmp


def job(rank, msg):
    print(rank, msg)


def launch(n):
    tmp.start_processes(job, args=("hi",), nprocs=n, start_method="spawn")


launch(2)
