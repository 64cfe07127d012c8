# Own corpus: joblib with its default (loky) backend at module level.
from joblib import Parallel, delayed


def slow_square(x):
    return x * x


results = Parallel(n_jobs=2)(delayed(slow_square)(i) for i in range(8))
print(results)
