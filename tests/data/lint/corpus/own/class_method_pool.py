# Own corpus: a dataset builder class whose build() uses Pool.starmap; called at top.
from multiprocessing import Pool


def render(idx, scale):
    return idx * scale


class Builder:
    def __init__(self, n, jobs=2):
        self.n = n
        self.jobs = jobs

    def build(self):
        with Pool(self.jobs) as pool:
            return pool.starmap(render, [(i, 10) for i in range(self.n)])


print(Builder(4).build())
