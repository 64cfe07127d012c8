"""Gather :class:`LoaderFacts`: the files outside an environment that ld.so could bind its
DT_NEEDED names to (ld.so.cache, default folders, LD_LIBRARY_PATH, absolute RPATH folders).

This touches the machine (it runs at collection, like the header reads), so that the
native checks judge only the Snapshot. Only the closure of names the environment needs is
probed: a few dozen stats and a few headers, not the whole system.
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from typing import Deque, Dict, Iterable, List, Optional, Set, Tuple

from dldoctor.snapshot.model import Library, LoaderFacts

SAMPLE_BYTES = 1 << 20  # a digest of the head and tail: same-name copies of GB-sized CUDA libs stay cheap


MACHINES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64", "i386": "x86", "i686": "x86"}


def interpreter_machine(machine: str, bits: int) -> str:
    """The interpreter's machine in BinaryInfo's vocabulary: a 32-bit Python on an x86_64
    kernel is an x86 process (host.machine names the kernel's)."""
    m = MACHINES.get(machine.lower(), machine.lower())
    if bits == 32 and m == "x86_64":
        return "x86"
    if bits == 32 and m == "aarch64":
        return "arm"
    return m


def _read(path: str, dist: Optional[str]) -> Library:
    from dldoctor.binary import BinaryFormatError, read_binary

    try:
        return Library(path=path, dist=dist, info=read_binary(path).to_dict())
    except (BinaryFormatError, OSError) as exc:
        return Library(path=path, dist=dist, error=str(exc))


def _sample_digest(path: str, size: int) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            h.update(fh.read(SAMPLE_BYTES))
            if size > 2 * SAMPLE_BYTES:
                fh.seek(size - SAMPLE_BYTES)
            h.update(fh.read(SAMPLE_BYTES))
    except OSError:
        return ""
    return f"{size}:{h.hexdigest()[:32]}"


def _abs_search_dirs(libs: Iterable[Library]) -> List[str]:
    """RPATH / RUNPATH folders of the environment's libraries, $ORIGIN expanded."""
    out: List[str] = []
    for lib in libs:
        info = lib.info or {}
        origin = os.path.dirname(lib.path)
        for entry in [*info.get("rpath", ()), *info.get("runpath", ())]:
            folder = str(entry).replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
            if "$" not in folder and os.path.isabs(folder):
                out.append(os.path.normpath(folder))
    return out


def _names(lib: Library) -> List[str]:
    return [str(n) for n in (lib.info or {}).get("needed", ())]


def linux_loader_facts(
    libraries: Tuple[Library, ...], ld_library_path: Tuple[str, ...], machine: str, bits: int,
    preload: Tuple[str, ...] = (),
) -> LoaderFacts:
    """Probe every folder ld.so could search for every name the environment needs, and read
    the LD_PRELOAD objects (entries with a slash; ld.so opens those as given)."""
    from dldoctor.loader.ldcache import cache_lookup_table, read_ld_so_cache
    from dldoctor.loader.linux import CACHE_FILE, default_dirs_for

    dirs, lib = default_dirs_for(machine, bits)
    table = cache_lookup_table(read_ld_so_cache(CACHE_FILE), machine)
    ours = {os.path.normpath(x.path) for x in libraries}
    folders: Dict[str, None] = {}
    for folder in [*ld_library_path, *_abs_search_dirs(libraries), *dirs]:
        if folder and os.path.isdir(folder):
            folders.setdefault(os.path.normpath(folder), None)
    cache: Dict[str, str] = {}
    outside: Dict[str, Library] = {}
    queue: Deque[str] = deque(n for x in libraries for n in _names(x))
    seen: Set[str] = set()

    def probe(path: str) -> None:
        if path in outside or path in ours or not os.path.isfile(path):
            return
        outside[path] = found = _read(path, None)
        queue.extend(_names(found))
        # a system library's own RPATH/RUNPATH (libpulse's .../pulseaudio): its needs are searched
        # there too, also the names already probed elsewhere
        for folder in _abs_search_dirs([found]):
            if folder not in folders and os.path.isdir(folder):
                folders.setdefault(folder, None)
                for known in seen:
                    probe(os.path.join(folder, known))

    while queue:
        name = queue.popleft()
        if name in seen or "/" in name:
            continue
        seen.add(name)
        hits = [os.path.join(f, name) for f in folders]
        if name in table:
            cache[name] = table[name]
            hits.append(table[name])
        for path in hits:
            probe(path)
    every = [*libraries, *outside.values()]
    sizes: Dict[str, int] = {}
    realpaths: Dict[str, str] = {}
    for x in every:
        try:
            sizes[x.path] = os.path.getsize(x.path)
        except OSError:
            continue
        real = os.path.realpath(x.path)
        if real != x.path:
            realpaths[x.path] = real
    return LoaderFacts(
        default_dirs=dirs,
        lib=lib,
        cache=cache,
        outside=tuple(outside[p] for p in sorted(outside)),
        realpaths=realpaths,
        sizes=sizes,
        digests=_same_name_digests(every, sizes, realpaths),
        preload=tuple(_read(p, None) for p in preload if "/" in p and os.path.isfile(p)),
    )


def _same_name_digests(
    libs: List[Library], sizes: Dict[str, int], realpaths: Dict[str, str]
) -> Dict[str, str]:
    """Digests only for files sharing a SONAME / file name with another file of equal size:
    different sizes already prove different content."""
    groups: Dict[Tuple[str, int], Set[str]] = {}
    for x in libs:
        if x.path not in sizes:
            continue
        key = (x.info or {}).get("soname") or os.path.basename(x.path)
        groups.setdefault((str(key), sizes[x.path]), set()).add(realpaths.get(x.path, x.path))
    out: Dict[str, str] = {}
    for (_, size), reals in groups.items():
        if len(reals) > 1:
            for x in libs:
                if realpaths.get(x.path, x.path) in reals and x.path not in out:
                    out[x.path] = _sample_digest(x.path, size)
    return out
