# Own corpus: the start method forced at module level, the pool under the guard.
import multiprocessing as mp

mp.set_start_method("spawn", force=True)


def neg(x):
    return -x


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.map(neg, [1, 2]))
