# ruff: noqa
# Good: the `!=` form; the spawning branch is the guarded one.
import multiprocessing


def run():
    with multiprocessing.Pool(2) as pool:
        pool.map(abs, [-1, -2])


if __name__ != "__main__":
    VALUE = 1
else:
    run()
