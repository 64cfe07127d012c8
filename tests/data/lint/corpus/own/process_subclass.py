# Own corpus: a Process subclass started at module level.
import multiprocessing as mp


class Producer(mp.Process):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def run(self):
        print("producing", self.n)


producer = Producer(5)
producer.start()
producer.join()
