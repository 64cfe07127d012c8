# Own corpus: a feature-extraction script: imap over "files" with a pool from a function.
import hashlib
import multiprocessing

FILES = [f"sample_{i}.wav" for i in range(6)]


def features(name):
    return hashlib.md5(name.encode()).hexdigest()[:8]


def extract(files, jobs=2):
    pool = multiprocessing.Pool(jobs)
    try:
        return list(pool.imap(features, files))
    finally:
        pool.close()
        pool.join()


for name, feat in zip(FILES, extract(FILES)):
    print(name, feat)
