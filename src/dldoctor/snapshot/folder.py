"""Read a folder of snapshot files (one per machine) for ``dldoctor fleet --from DIR``.

The files come from ``srun ... dldoctor snapshot -o DIR/%n.json``, a Kubernetes job or CI:
each is named after its machine. A file that cannot be read or is not a snapshot becomes a
row (name, why) and the rest are still judged. Files alike but for their ``created`` stamp
(the usual fleet: one image on many nodes) are parsed once and share one Snapshot, which
is what keeps a thousand-node folder within a second or two.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import OrderedDict
from typing import Iterator, List, Optional, Tuple, Union

from dldoctor.errors import DldoctorError
from dldoctor.inputs import InputError, check_values, loads_bounded, read_capped
from dldoctor.snapshot.collect import unredact_home
from dldoctor.snapshot.model import Snapshot
from dldoctor.snapshot.rawhome import loads_restored

SUFFIX = ".json"
MAX_FILES = 100_000
_CREATED = re.compile(rb'"created"\s*:\s*"[^"\\]*"')

Loaded = Tuple[str, Union[Snapshot, str], str]  # (machine name, its snapshot or why none, content key)
REMEMBERED = 16  # distinct contents kept to share: a fleet has a few variants, not thousands


def snapshot_from_data(data: object, restored: bool = False) -> Snapshot:
    """A Snapshot from parsed JSON (home placeholder restored here unless ``restored``);
    ValueError if it is none."""
    try:
        if isinstance(data, dict) and not restored:
            data = unredact_home(data)
        return Snapshot.from_dict(data)  # type: ignore[arg-type]
    except RecursionError:
        raise ValueError("nested too deeply") from None


def snapshot_files(folder: str) -> List[str]:
    """The ``*.json`` files of ``folder``, sorted; one clear line when it is no folder."""
    try:
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if e.name.endswith(SUFFIX) and not e.name.startswith("."))
    except OSError as exc:
        raise DldoctorError(f"--from {folder}: cannot list ({exc.strerror or exc})") from None
    if len(names) > MAX_FILES:
        raise DldoctorError(f"--from {folder}: more than {MAX_FILES:,} snapshot files")
    return names


def load_folder(folder: str) -> Iterator[Loaded]:
    """(machine, Snapshot or why not, content key) for every ``*.json`` file in ``folder``,
    one at a time and in name order: a caller that keeps only what it needs holds one
    snapshot per group. Many files are parsed in worker processes (:mod:`.pool`)."""
    from dldoctor.snapshot.pool import load_paths

    names = snapshot_files(folder)
    loaded = load_paths([os.path.join(folder, name) for name in names])
    for name, (got, key) in zip(names, loaded):
        yield (name[: -len(SUFFIX)], got, key)


Read = Tuple[Optional[bytes], str, str]  # (the file's bytes or None, why none, content key)


def read_one(path: str) -> Read:
    """A file's bytes and content key (equal for files alike but for ``created``), or why
    it cannot be read."""
    try:
        got = read_capped(path, path)
    except InputError as exc:
        return None, exc.reason, ""
    if got.skipped:
        return None, f"larger than {len(got.data) >> 20} MiB; not read", ""
    raw = got.data
    return raw, "", hashlib.blake2b(_CREATED.sub(b"", raw, count=1), digest_size=20).hexdigest()


def parse_one(raw: bytes, path: str) -> Union[Snapshot, str]:
    """The Snapshot in a file's bytes, or one line saying why there is none (never raises
    for bad input)."""
    try:
        check_values(raw, path)
        data = loads_restored(raw)  # the usual file: ~ restored on the text, one C parse
        return (snapshot_from_data(data, restored=True) if data is not None
                else snapshot_from_data(loads_bounded(raw, path, "not JSON")))
    except InputError as exc:
        return exc.reason
    except ValueError as exc:
        return f"not a dldoctor snapshot ({exc})"


def load_one(path: str, seen: Optional[OrderedDict[str, Union[Snapshot, str]]] = None
             ) -> Tuple[Union[Snapshot, str], str]:
    """One file's Snapshot (or one line saying why there is none; never raises for bad
    input) and its content key. Files alike but for ``created`` share one object while
    they are among the last :data:`REMEMBERED` distinct contents."""
    raw, why, key = read_one(path)
    if raw is None:
        return why, key
    if seen is not None and key in seen:
        seen.move_to_end(key)
        return seen[key], key
    result = parse_one(raw, path)
    if seen is not None:
        seen[key] = result
        if len(seen) > REMEMBERED:
            seen.popitem(last=False)
    return result, key
