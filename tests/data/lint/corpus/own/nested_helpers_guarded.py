# Own corpus: run() -> prepare() -> Pool, but run() is only called under the guard.
from multiprocessing import Pool


def work(x):
    return x % 3


def prepare(items):
    with Pool(2) as p:
        return p.map(work, items)


def run():
    return prepare(range(6))


CONSTANTS = [work(i) for i in range(3)]

if __name__ == "__main__":
    print(run(), CONSTANTS)
