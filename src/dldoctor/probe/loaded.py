"""Judging the loaded-library lists: which copies shared one process, and who won.

Pure functions over ImportProbe values, except ``read_glibcxx_level`` /
``system_libstdcxx`` which read files and run at collection time (their results are stored
in the ProbeReport so the judging stays pure).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from dldoctor.binary.vendored import same_vendored_library
from dldoctor.conditions.openmp import openmp_runtime
from dldoctor.probe.imports import library_key, load_key
from dldoctor.probe.model import ImportProbe, LoadedLibrary

LIBSTDCXX = "libstdc++.so.6"
_SO_VERSION = re.compile(r"libstdc\+\+\.so\.6\.0\.(\d+)$")
_GLIBCXX = re.compile(rb"GLIBCXX_3\.4\.(\d+)")
_SCAN_LIMIT = 32 * 1024 * 1024  # libstdc++ is ~2-20 MiB; never read a stray huge file
SYSTEM_LIB_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                   "/lib64", "/usr/lib", "/lib")


def openmp_runtimes(loaded: Iterable[LoadedLibrary]) -> List[Tuple[str, LoadedLibrary]]:
    """Each loaded OpenMP runtime with its family (GNU, Intel, LLVM, MSVC), one per file."""
    out: List[Tuple[str, LoadedLibrary]] = []
    for lib in loaded:
        runtime = openmp_runtime(lib.path)
        if runtime:
            out.append((runtime, lib))
    return out


def duplicate_openmp(probe: ImportProbe) -> List[Tuple[str, LoadedLibrary]]:
    """The OpenMP runtimes of a probe when two or more different families loaded (else empty).

    Judged by family, as the static check and the wheel-set simulator do (one table,
    openmp.toml): libiomp5 next to libgomp is two thread pools and OMP Error #15, while two
    copies of libgomp (the system's and auditwheel's libgomp-<hash>.so.1 in scikit-learn, next
    to torch's) are separate, hash-named on purpose, and work together.
    """
    found = openmp_runtimes(probe.loaded)
    return found if len({runtime for runtime, _ in found}) >= 2 else []


def replaced_copies(probe: ImportProbe, natives: Mapping[str, Sequence[str]]
                    ) -> List[Tuple[str, str, LoadedLibrary]]:
    """(dist, its own copy, the copy that loaded instead) for libraries a package ships
    but that came from somewhere else in this process.

    Only packages with at least one library in the process count: a package that was not
    imported did not lose anything. A package whose own copy also loaded (two copies side by
    side) is a duplicate, not a replacement, and is left to the duplicate checks. A loader
    serves a request with a loaded library only under the name asked for, so only a copy of
    that very name replaced it: auditwheel's libpng16-abb096d5.so.16 in pillow and another
    hash in opencv are two libraries side by side, and a package's copy not loaded yet may
    be one it loads later, on demand (pillow's AVIF plugin, PyQt5's QtTest).
    """
    loaded_by_key: Dict[str, List[LoadedLibrary]] = {}
    for lib in probe.loaded:
        loaded_by_key.setdefault(load_key(lib.path), []).append(lib)
    present = {lib.owner for lib in probe.loaded if lib.owner}
    out: List[Tuple[str, str, LoadedLibrary]] = []
    for dist, own in natives.items():
        if dist not in present:
            continue
        own_norm = {os.path.normcase(p) for p in own}
        for path in own:
            if path.endswith((".pyd",)) or ".cpython-" in path or ".abi3." in path:
                continue  # extension modules are imported by path, never by name
            libs = loaded_by_key.get(load_key(path), [])
            if any(same_vendored_library(path, lib.path) for lib in libs):
                continue  # numpy's and scipy's libgfortran-040039e1.so.5: one library (binary.vendored)
            if libs and not any(os.path.normcase(lib.path) in own_norm for lib in libs):
                out.append((dist, path, libs[0]))
    return out


def glibcxx_from_name(path: str) -> Optional[int]:
    """``libstdc++.so.6.0.30`` -> 30 (it provides GLIBCXX_3.4.30); None for other names."""
    m = _SO_VERSION.search(os.path.realpath(path))
    return int(m.group(1)) if m else None


def read_glibcxx_level(path: str) -> Optional[int]:
    """Newest GLIBCXX_3.4.N a libstdc++ provides: from its file name, else its strings."""
    level = glibcxx_from_name(path)
    if level is not None:
        return level
    try:
        if Path(path).stat().st_size > _SCAN_LIMIT:
            return None
        with open(path, "rb") as fh:
            data = fh.read(_SCAN_LIMIT)
    except OSError:
        return None
    found = [int(m.group(1)) for m in _GLIBCXX.finditer(data)]
    return max(found) if found else None


def system_libstdcxx(dirs: Sequence[str] = SYSTEM_LIB_DIRS) -> Optional[str]:
    """The libstdc++ the system would load (first default directory that has one)."""
    for folder in dirs:
        candidate = Path(folder) / LIBSTDCXX
        if candidate.exists():
            return os.path.realpath(candidate)
    return None


def loaded_libstdcxx(probe: ImportProbe) -> Optional[LoadedLibrary]:
    for lib in probe.loaded:
        if library_key(lib.path).startswith(LIBSTDCXX):
            return lib
    return None


def older_libstdcxx(probe: ImportProbe, levels: Mapping[str, Optional[int]]
                    ) -> Optional[Tuple[LoadedLibrary, int, str, int]]:
    """(loaded copy, its level, a newer copy, that level) when an older libstdc++ won."""
    lib = loaded_libstdcxx(probe)
    if lib is None:
        return None
    mine = levels.get(lib.path)
    if mine is None:
        return None
    newer = [(lvl, path) for path, lvl in levels.items()
             if lvl is not None and lvl > mine and path != lib.path]
    if not newer:
        return None
    lvl, path = max(newer)
    return lib, mine, path, lvl
