# Own corpus: thread pools at module level (threads, not processes).
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.pool import ThreadPool

with ThreadPoolExecutor(max_workers=2) as ex:
    print(list(ex.map(str.upper, ["x", "y"])))

tp = ThreadPool(2)
print(tp.map(len, ["aa", "b"]))
tp.close()
tp.join()
