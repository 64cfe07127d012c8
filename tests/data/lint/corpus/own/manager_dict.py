# Own corpus: a shared dict from a Manager created at module level.
import multiprocessing as mp

manager = mp.Manager()
shared = manager.dict()
shared["count"] = 0


def bump(d):
    d["count"] += 1


if __name__ == "__main__":
    p = mp.Process(target=bump, args=(shared,))
    p.start()
    p.join()
    print(shared["count"])
