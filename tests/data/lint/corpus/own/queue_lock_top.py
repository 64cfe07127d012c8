# Own corpus: a queue and a lock made at module level (no process); workers under the guard.
import multiprocessing as mp

results = mp.Queue()
lock = mp.Lock()


def work(q, n):
    q.put(n * n)


if __name__ == "__main__":
    procs = [mp.Process(target=work, args=(results, i)) for i in range(2)]
    for p in procs:
        p.start()
    print(sorted(results.get() for _ in procs))
    for p in procs:
        p.join()
