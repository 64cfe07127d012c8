# Own corpus: a process pool used under the guard; data prepared at module level.
import multiprocessing as mp

WORDS = ["alpha", "beta", "gamma", "delta"] * 3


def count_vowels(word):
    return sum(ch in "aeiou" for ch in word)


if __name__ == "__main__":
    mp.freeze_support()
    with mp.Pool(2) as pool:
        print(sum(pool.map(count_vowels, WORDS)))
