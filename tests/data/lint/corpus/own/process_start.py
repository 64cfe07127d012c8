# Own corpus: a background writer process started at module level.
import multiprocessing


def writer(n):
    print("writing", n)


proc = multiprocessing.Process(target=writer, args=(3,))
proc.start()
proc.join()
