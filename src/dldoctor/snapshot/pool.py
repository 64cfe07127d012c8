"""Parse many snapshot files on all cores, in order, in bounded memory (``fleet --from``).

Parsing a torch environment's snapshot (JSON, then the typed Snapshot) takes milliseconds;
a folder of a thousand distinct ones is seconds on one core. The main process reads each
file and keys its content (files alike but for ``created`` are parsed once, as before);
each new content is parsed in a worker process, and the results come back in file order.
At most :data:`WINDOW` files, and :data:`WINDOW_BYTES` of them, are in flight, so memory
stays bounded whatever the folder holds. Small folders, one core, or a platform without
``fork`` (a worker would re-import dldoctor) read in this process.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict, deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Deque, Iterator, Sequence, Tuple, Union

from dldoctor.snapshot.folder import REMEMBERED, load_one, parse_one, read_one
from dldoctor.snapshot.model import Snapshot

POOL_FROM = 64  # files: fewer are read here (starting workers costs more than it saves)
MAX_WORKERS = 4
WINDOW = 32  # distinct files in flight
WINDOW_BYTES = 128 << 20  # and their bytes

Got = Union[Snapshot, str]
Entry = Tuple["Future[Got]", str]  # a file's parse (shared by files of one content) and key


def workers() -> int:
    """Cores this process may run on (Linux: its affinity), at most :data:`MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))  # type: ignore[attr-defined,unused-ignore]
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return min(cores, MAX_WORKERS)


def load_paths(paths: Sequence[str]) -> Iterator[Tuple[Got, str]]:
    """(Snapshot or why not, content key) for each path, in order."""
    if len(paths) < POOL_FROM or workers() < 2 or not sys.platform.startswith("linux"):
        seen: OrderedDict[str, Got] = OrderedDict()
        for path in paths:
            yield load_one(path, seen)
        return
    yield from _pooled(paths)


def _done(result: Got) -> Future[Got]:
    f: Future[Got] = Future()
    f.set_result(result)
    return f


def _pooled(paths: Sequence[str]) -> Iterator[Tuple[Got, str]]:
    import multiprocessing

    pending: Deque[Entry] = deque()
    sizes: Deque[Tuple[Future[Got], int]] = deque()  # the bytes each parse in flight holds
    seen: OrderedDict[str, Future[Got]] = OrderedDict()
    pool = ProcessPoolExecutor(workers(), mp_context=multiprocessing.get_context("fork"))
    try:
        for path in paths:
            raw, why, key = read_one(path)
            if raw is None:
                pending.append((_done(why), key))
            elif key in seen:
                seen.move_to_end(key)
                pending.append((seen[key], key))
            else:
                future = pool.submit(parse_one, raw, path)
                sizes.append((future, len(raw)))
                del raw
                seen[key] = future
                if len(seen) > REMEMBERED:
                    seen.popitem(last=False)
                pending.append((future, key))
            while sizes and (len(sizes) > WINDOW or sum(n for _, n in sizes) > WINDOW_BYTES):
                sizes[0][0].result()  # wait for the oldest parse: its bytes are freed
                sizes.popleft()
            while pending and pending[0][0].done():
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
    finally:
        for entry in pending:
            entry[0].cancel()
        pool.shutdown(wait=True)


def _result(entry: Entry) -> Tuple[Got, str]:
    return entry[0].result(), entry[1]
