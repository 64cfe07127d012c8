# Own corpus: an executor built at module level, mapped over inside a helper called at top.
import concurrent.futures

EXECUTOR = concurrent.futures.ProcessPoolExecutor(max_workers=2)


def square(x):
    return x * x


def squares(xs):
    return list(EXECUTOR.map(square, xs))


print(squares([1, 2, 3]))
EXECUTOR.shutdown()
