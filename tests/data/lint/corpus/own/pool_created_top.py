# Own corpus: a pool created at module level, used only under the guard: still starts on import.
import multiprocessing as mp

POOL = mp.Pool(2)


def inc(x):
    return x + 1


if __name__ == "__main__":
    print(POOL.map(inc, [1, 2, 3]))
    POOL.close()
    POOL.join()
