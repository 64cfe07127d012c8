# Own corpus: a ProcessPoolExecutor built at module level, used only under the guard.
from concurrent.futures import ProcessPoolExecutor

pool = ProcessPoolExecutor(max_workers=2)


def double(x):
    return 2 * x


if __name__ == "__main__":
    print(list(pool.map(double, range(5))))
    pool.shutdown()
