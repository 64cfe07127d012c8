"""The environment's native libraries as ld.so would load them, computed from a Snapshot alone.

Each library is judged in the context that loads it: extension modules are the roots (the
interpreter loads them), and what they pull in inherits their DT_RPATH chain. So scipy.libs'
libgfortran, which has no RPATH of its own, finds libquadmath through the RPATH of the scipy
extension that loaded it, as ld.so does; a per-file view (``ldd`` on the library alone)
would call it missing. A library in a library folder (``*.libs``, ``lib``) that nothing
loads is not judged alone: something else (a ctypes preload, a plugin loader) decides how.
Elsewhere such an orphan is judged alone, and a lib*.so one without a SONAME is a plugin: a file
no link names, loaded by its path when a feature asks for it (Qt's platform, SQL-driver and QML
plugins, GStreamer's elements), whose loader skips it when it cannot load. Its missing libraries
cost that feature, not the import (:attr:`EnvGraphs.plugins`). An extension module without an
ABI tag (TensorFlow's _pywrap_*.so, jaxlib's _jax.so) has no SONAME either, and no "lib" prefix.

No file is read here: the loader model runs on a virtual file system made of the
snapshot's libraries and its :class:`~dldoctor.snapshot.model.LoaderFacts`.
"""

# Loader paths are plain strings of the snapshot's OS, not pathlib paths.
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from dldoctor.binary import BinaryFormatError, BinaryInfo
from dldoctor.conditions.native import native_data
from dldoctor.loader.frameworks import preloaded
from dldoctor.loader.graph import LoadGraph, PathModule
from dldoctor.loader.ldcache import CACHE_FLAGS, CacheEntry
from dldoctor.loader.linux import RTLD, LinuxConfig, LinuxLoader
from dldoctor.snapshot.loaderfacts import interpreter_machine
from dldoctor.snapshot.model import Library, Snapshot


def basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def is_extension(path: str) -> bool:
    name = basename(path)
    return any(p.search(name) for p in native_data().extension)


def in_library_folder(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    folder = parts[-2] if len(parts) > 1 else ""
    data = native_data()
    return folder in data.library_folders or folder.endswith(data.library_folder_suffixes)


def load_name(lib: Library) -> str:
    """The name a loader knows a loaded library by: SONAME (ELF), else the file name."""
    soname = (lib.info or {}).get("soname")
    return str(soname) if soname else basename(lib.path)


class SnapshotFileSystem:
    """The loader models' FileSystem seam over the files a snapshot knows about."""

    pathmod: PathModule = posixpath

    def __init__(self, paths: Iterable[str], realpaths: Dict[str, str]) -> None:
        self._files = set(paths)
        self._realpaths = realpaths
        self._index: Dict[str, Dict[str, str]] = {}
        for p in self._files:
            folder, _, name = posixpath.normpath(p).rpartition("/")
            self._index.setdefault(folder or "/", {})[name] = p

    def find(self, folder: str, name: str) -> Optional[str]:
        return self._index.get(posixpath.normpath(folder), {}).get(name)

    def is_file(self, path: str) -> bool:
        return path in self._files

    def realpath(self, path: str) -> str:
        return self._realpaths.get(path, path)


@dataclass(frozen=True)
class EnvGraphs:
    """Every root's load graph, and what the analysis needed to build them."""

    machine: str
    graphs: Tuple[LoadGraph, ...]
    libraries: Dict[str, Library]  # every file the snapshot knows, env and outside, by path
    env_paths: frozenset  # type: ignore[type-arg]
    skipped_roots: Tuple[str, ...]  # wrong-architecture roots: wrong-architecture reports them
    aliases: Dict[str, str] = field(default_factory=dict)  # real path -> the path the snapshot names
    plugins: frozenset = frozenset()  # type: ignore[type-arg]  # orphan roots without a SONAME: loaded on demand

    def library(self, path: str) -> Optional[Library]:
        """The snapshot's library at ``path``, also when the loader names it by its real path
        (a venv reached through a symlinked folder: the graph follows links, RECORD does not)."""
        return self.libraries.get(path) or self.libraries.get(self.aliases.get(path, ""))


def dist_of(g: EnvGraphs, path: str) -> str:
    """The distribution that ships ``path``, or "the system"."""
    lib = g.library(path)
    return (lib.dist if lib else None) or "the system"


def _reader(libs: Dict[str, Library]) -> Any:
    infos: Dict[str, BinaryInfo] = {}

    def read(path: str) -> BinaryInfo:
        if path not in infos:
            lib = libs.get(path)
            if lib is None or lib.info is None:
                raise BinaryFormatError(lib.error if lib and lib.error else "no header facts in the snapshot")
            infos[path] = BinaryInfo.from_dict(lib.info)
        return infos[path]

    return read


def compatible(lib: Library, machine: str, bits: int) -> bool:
    info = lib.info or {}
    return info.get("machine") == machine and info.get("bits") == bits


_LAST: List[Tuple[Snapshot, Optional[EnvGraphs]]] = []


def env_graphs(snap: Snapshot) -> Optional[EnvGraphs]:
    """The Linux load graphs of every root (None when the snapshot cannot say: not Linux, or
    taken without loader facts). Computed once per snapshot for all native checks."""
    if _LAST and _LAST[0][0] is snap:
        return _LAST[0][1]
    result = _build(snap)
    _LAST[:] = [(snap, result)]
    return result


def _preloaded(snap: Snapshot, env: Dict[str, Library]) -> List[Library]:
    """Libraries a package loads itself at import time (conditions/preloads.toml: torch's
    libtorch_global_deps.so): roots like extension modules, judged in their own context."""
    out: List[Library] = []
    for d in snap.distributions:
        rels = [r.replace("\\", "/") for r in d.native_libs]
        for rel in preloaded(d.name, "linux", rels):
            lib = env.get(posixpath.normpath(posixpath.join(d.location, rel)))
            if lib is not None and lib.info:
                out.append(lib)
    return out


def _build(snap: Snapshot) -> Optional[EnvGraphs]:
    facts = snap.loader
    if snap.host.os != "linux" or facts is None:
        return None
    machine = interpreter_machine(snap.host.machine, snap.interpreter.bits)
    bits = snap.interpreter.bits
    env = {x.path: x for x in snap.libraries}
    every = {**{x.path: x for x in facts.outside}, **env}
    # A RECORD entry whose file is gone is not on disk for the loader; a file that is there
    # but unreadable (its size is known) is: the loader finds it and fails on it.
    fs = SnapshotFileSystem((p for p, x in every.items() if x.info or p in facts.sizes), facts.realpaths)
    flags = CACHE_FLAGS.get(machine, 0)
    config = LinuxConfig(
        machine=machine,
        ld_library_path=tuple(e.path for e in snap.search_path if e.var == "LD_LIBRARY_PATH"),
        cache=tuple(CacheEntry(n, flags, 0, p) for n, p in sorted(facts.cache.items())),
        default_dirs=facts.default_dirs,
        lib=facts.lib or "lib",
        platform=machine if machine != "x86" else "i686",
        rtld=RTLD.get(machine),
        cwd=snap.interpreter.cwd or "/",
    )
    loader = LinuxLoader(_reader(every), fs, config)
    roots = [*_preloaded(snap, env), *(x for x in snap.libraries if x.info and is_extension(x.path))]
    skipped = tuple(x.path for x in roots if not compatible(x, machine, bits))
    graphs = [loader.load(x.path) for x in roots if x.path not in skipped]
    reached = {r.path for g in graphs for e in g.edges for r in (e.resolution,) if r.path}
    reached |= {facts.realpaths.get(p, p) for p in list(reached)}
    plugins: Set[str] = set()
    preloads = {x.path for x in roots}
    prefix = native_data().plugin_prefix
    for x in snap.libraries:  # orphans outside library folders are judged alone
        if (x.info and x.path not in reached and not is_extension(x.path)
                and not in_library_folder(x.path) and compatible(x, machine, bits)):
            graphs.append(loader.load(x.path))
            if not x.info.get("soname") and x.path not in preloads and basename(x.path).startswith(prefix):
                plugins.add(x.path)
    aliases = {real: path for path, real in facts.realpaths.items() if path in env}
    return EnvGraphs(machine, tuple(graphs), every, frozenset(env), skipped, aliases, frozenset(plugins))
