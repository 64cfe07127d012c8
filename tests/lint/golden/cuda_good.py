# ruff: noqa
# Good: workers return CPU tensors and the main process moves them; a CUDA Dataset used
# without workers; CPU tensors on queues.
import queue as stdqueue

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, Dataset


class CpuDataset(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor([i])


class GpuNoWorkers(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor([i]).cuda()


def producer(q):
    q.put(torch.randn(2).cpu())


def main():
    for batch in DataLoader(CpuDataset(), batch_size=4, num_workers=4):
        batch = batch.cuda()
    for batch in DataLoader(GpuNoWorkers(), batch_size=4, num_workers=0):
        pass
    q = mp.Queue()
    mp.Process(target=producer, args=(q,)).start()
    local = stdqueue.Queue()
    local.put(torch.ones(1).cuda())


if __name__ == "__main__":
    main()
