# Own corpus: heavy-ish numpy preprocessing at module level, the pool under the guard.
import multiprocessing as mp

import numpy as np

rng = np.random.default_rng(0)
matrix = rng.normal(size=(50, 8))
normed = (matrix - matrix.mean(0)) / matrix.std(0)


def row_norm(i):
    return float(np.linalg.norm(normed[i]))


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(round(sum(pool.map(row_norm, range(10))), 3))
