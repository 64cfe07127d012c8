# ruff: noqa
# Bad on Windows (no CUDA IPC): CUDA tensors crossing process boundaries.
# Shapes of JackeyLove1/Leetcode python/ML/构造dataloader.py (`.cuda()` inside
# __getitem__ with num_workers=4) and K-Wu/python_and_bash_playground try_pytorch_mp.py
# (a CUDA tensor put on a torch.multiprocessing queue) in the public code corpus.
import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class GpuDataset(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.tensor([i, i + 1])
        if torch.cuda.is_available():
            x = x.cuda()  # error: DLD029
        return x


class DeviceDataset(torch.utils.data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.zeros(3).to(device)  # error: DLD029


def producer(q):
    t = torch.randn(2, device="cuda:0")
    q.put((t, 1))  # error: DLD029


def main():
    ds = GpuDataset()
    loader = DataLoader(ds, batch_size=4, num_workers=4)
    for _ in loader:
        pass
    for _ in DataLoader(DeviceDataset(), num_workers=2):
        pass
    queue = mp.Queue()
    weights = torch.ones(3).cuda()
    p = mp.Process(target=producer, args=(queue, weights))  # error: DLD029
    p.start()
    queue.put(weights)  # error: DLD029
    p.join()


if __name__ == "__main__":
    main()
