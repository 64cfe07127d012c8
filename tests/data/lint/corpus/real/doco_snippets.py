# Real-shaped corpus: the structure of https://github.com/0xdomyz/python_collection
# (concurrency/multiprocessing_script/doco.py at commit b1abae5e1b7a3c3841750e529dac09081a237a41),
# rewritten, not copied: documentation snippets pasted one after another into one script,
# each with its own `if __name__ == "__main__":` block, imports and redefined helpers between
# them (a Pool, a Process, a Process with a helper that prints process facts).
# Trimmed: smaller inputs; print statements reworded.
from multiprocessing import Pool


def f(x):
    return x * x


if __name__ == "__main__":
    with Pool(2) as p:
        print(p.map(f, [1, 2, 3]))

from multiprocessing import Process


def f(name):
    print("hi", name)


if __name__ == "__main__":
    p = Process(target=f, args=("ann",))
    p.start()
    p.join()

import os


def info(title):
    print(title, __name__, os.getppid(), os.getpid())


def g(name):
    info("in g")
    print("hi", name)


if __name__ == "__main__":
    info("main")
    p = Process(target=g, args=("bo",))
    p.start()
    p.join()
