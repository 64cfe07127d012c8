# Own corpus: a Process object built at module level, started only under the guard.
import multiprocessing


def heartbeat(n):
    print("beat", n)


monitor = multiprocessing.Process(target=heartbeat, args=(1,), daemon=True)

if __name__ == "__main__":
    monitor.start()
    monitor.join()
