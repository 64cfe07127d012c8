# ruff: noqa
# Bad: process pools and Process objects in a preprocessing script, no guard.
# Shape of eurostat/Pysco src/accessibility/test.py (`with Pool(4) as p: p.map(...)` at top
# level) and of a trainer class driven from module level. Every marked line was confirmed by
# running the file under spawn (tests/lint/spawn_oracle.py, earlier starts removed in turn).
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import Pool

import torch.utils.data as tud


def square(x):
    return x * x


with Pool(4) as p:  # error: DLD026
    print(p.map(square, range(10)))

ctx = multiprocessing.get_context("spawn")
worker = ctx.Process(target=square, args=(3,))  # building a Process starts nothing
worker.start()  # error: DLD026

with ProcessPoolExecutor(max_workers=2) as ex:  # the executor starts workers on map/submit
    list(ex.map(square, range(4)))  # error: DLD026

manager = multiprocessing.Manager()  # error: DLD026


class Trainer:
    def __init__(self, data):
        self.data = data

    def fit(self):
        self.loader = tud.DataLoader(self.data, batch_size=4, num_workers=2)
        for _ in self.loader:
            pass


trainer = Trainer(list(range(8)))
trainer.fit()  # error: DLD026
Trainer(list(range(8))).fit()  # error: DLD026
