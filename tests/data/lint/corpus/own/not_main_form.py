# Own corpus: the `!=` guard form, spawning in the else branch.
import multiprocessing


def shout(s):
    return s.upper()


if __name__ != "__main__":
    print("imported as", __name__)
else:
    with multiprocessing.Pool(2) as pool:
        print(pool.map(shout, ["a", "b"]))
