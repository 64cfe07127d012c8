# ruff: noqa
# Bad: distributed launch and a trainer reached from module level without a guard.
# Shape of the ImageNet-style launcher (pytorch/examples imagenet/main.py: main() ->
# mp.spawn(main_worker, nprocs=ngpus_per_node, args=...)), and of the search results
# "distributed_main(args) ... mp.spawn(worker, nprocs=...)" in the public code corpus, with
# the final `if __name__ == "__main__":` missing, as beginners' copies often have it.
import argparse

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader as DL

parser = argparse.ArgumentParser()
parser.add_argument("--workers", type=int, default=4)
args = parser.parse_args()


def build_loader(dataset, workers):
    return DL(dataset, batch_size=32, num_workers=workers)


def train(args):
    loader = build_loader(list(range(100)), args.workers)
    for _ in loader:
        pass


def main_worker(gpu, ngpus, args):
    train(args)


def main():
    ngpus = torch.cuda.device_count()
    mp.spawn(main_worker, nprocs=ngpus, args=(ngpus, args))


torch.multiprocessing.spawn(main_worker, nprocs=2, args=(2, args))  # error: DLD026
main()  # error: DLD026
train(args)  # error: DLD026
