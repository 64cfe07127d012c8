# Own corpus: joblib with the multiprocessing backend at module level.
from joblib import Parallel, delayed


def cube(x):
    return x ** 3


out = Parallel(n_jobs=2, backend="multiprocessing")(delayed(cube)(i) for i in range(6))
print(out)
