# Own corpus: futures submitted to a process pool at module level.
from concurrent.futures import ProcessPoolExecutor, as_completed


def score(x):
    return x * 3


with ProcessPoolExecutor(max_workers=2) as executor:
    futures = [executor.submit(score, i) for i in range(4)]
    print(sorted(f.result() for f in as_completed(futures)))
