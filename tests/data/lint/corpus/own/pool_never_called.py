# Own corpus: a helper that would use a pool, defined but not called at import.
from multiprocessing import Pool


def parallel_lengths(items):
    with Pool(2) as p:
        return p.map(len, items)


def serial_lengths(items):
    return [len(i) for i in items]


print(serial_lengths(["a", "bb", "ccc"]))
