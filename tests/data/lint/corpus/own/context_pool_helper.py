# Own corpus: a spawn context pool inside a helper that the script calls at top level.
import multiprocessing as mp


def checksum(n):
    return sum(range(n)) % 97


def compute_all(values):
    ctx = mp.get_context("spawn")
    with ctx.Pool(processes=2) as pool:
        return pool.map(checksum, values)


results = compute_all([10, 20, 30])
print(results)
