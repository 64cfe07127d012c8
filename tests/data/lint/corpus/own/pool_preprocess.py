# Own corpus: a preprocessing script that tokenises lines with a process pool.
from multiprocessing import Pool

LINES = ["the cat sat", "on the mat", "a dog barked", "at the cat"]


def tokenize(line):
    return line.split()


with Pool(2) as pool:
    tokens = pool.map(tokenize, LINES)
print(sum(len(t) for t in tokens))
