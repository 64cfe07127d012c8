# Real-shaped corpus: the structure of https://github.com/2829507692/spider
# (the multiprocessing test script in its requests-library folder, at commit
# dff97d4d7e2e74426b59b66a656fdaf8c0f51890), rewritten, not copied: a Process demo under a
# guard, helpers defined below it, a Pool demo under a second guard.
# Trimmed: smaller ranges. Changed: one unguarded Pool line appended at the end (as beginners
# add them), so this file is the repository's shape plus that one line.
import os
from multiprocessing import Pool, Process


def info(title):
    print(title, __name__, os.getppid(), os.getpid())


def f(name):
    info("function f")
    print("hello", name)


if __name__ == "__main__":
    info("main line")
    p = Process(target=f, args=("bob",))
    p.start()
    p.join()


def square(x):
    return x * x


if __name__ == "__main__":
    with Pool(2) as pool:
        print(pool.map(square, range(5)))

with Pool(2) as pool:
    print("again", pool.map(square, range(3)))
