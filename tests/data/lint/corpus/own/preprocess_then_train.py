# Own corpus: preprocessing with a process pool at module level, training under the guard.
from concurrent.futures import ProcessPoolExecutor

RAW = ["  Hello World ", "Foo  ", " bar"]


def clean(text):
    return " ".join(text.lower().split())


with ProcessPoolExecutor(2) as ex:
    CLEAN = list(ex.map(clean, RAW))


def train(corpus):
    return {w: i for i, w in enumerate(sorted(set(" ".join(corpus).split())))}


if __name__ == "__main__":
    print(train(CLEAN))
