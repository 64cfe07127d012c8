"""glibc ld.so's search for DT_NEEDED names, reproduced without loading anything.

For a needed name without a slash, requested by object R, ld.so (``elf/dl-load.c``,
``_dl_map_object``) tries, in this order; the rule names are what each
:class:`~dldoctor.model.Resolution` carries:

1. ``already-loaded``: an object already in the process whose SONAME, or a name it was
   requested by, equals the name (ld.so itself, ``ld-linux-x86-64.so.2``, is always loaded);
   a file found by search that is the same file as a loaded object (same real path, ld.so
   compares device and inode) is reused too.
2. ``rpath`` / ``rpath-inherited``: only when R has no DT_RUNPATH, R's DT_RPATH, then the
   DT_RPATH of the object that loaded R, and so on up to the root (an object that has a
   DT_RUNPATH has its DT_RPATH ignored, so it passes nothing on).
3. ``ld_library_path``: LD_LIBRARY_PATH (``:`` or ``;`` separated; an empty entry is the
   current folder).
4. ``runpath``: R's own DT_RUNPATH; never inherited.
5. ``ld.so.cache``: ``/etc/ld.so.cache`` (see :mod:`dldoctor.loader.ldcache`).
6. ``default-dirs``: the built-in system folders (multiarch on Debian/Ubuntu:
   ``/lib/<triplet>``, ``/usr/lib/<triplet>``, ``/lib``, ``/usr/lib``; else ``/lib64``,
   ``/usr/lib64`` for 64-bit and ``/lib``, ``/usr/lib`` for 32-bit).

A name with a slash is opened as given (``direct-path``). In RPATH/RUNPATH entries
``$ORIGIN`` (the folder R was found in, symlinks not resolved, as ld.so records it),
``$LIB`` and ``$PLATFORM`` (also in ``${...}`` form) are expanded. A file found in a folder
whose ELF class or machine differs from the root's is skipped, as ld.so skips
"incompatible" files; when only such copies exist the rule is ``wrong-architecture``. A
file found that is not a loadable ELF (truncated, not an ELF, corrupt headers) ends the
search: ld.so's ``open_verify`` fails the whole load there ("file too short", "invalid ELF
header"; a copy cut inside its loaded segments dies with SIGBUS) even when a good copy
waits in a later folder; the rule is ``unreadable`` (checked against the real ld.so in
tests/loader).
Dependencies are mapped breadth-first, as ``_dl_map_object_deps`` does, which decides which
copy "already-loaded" reuses. Not modelled: glibc-hwcaps and legacy hwcap subfolders,
DF_1_NODEFLIB, LD_PRELOAD, dlopen flags (RTLD_DEEPBIND, namespaces).
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from typing import Deque, Dict, List, Mapping, Set, Tuple

from dldoctor.loader.graph import (
    ALREADY_LOADED,
    NOT_FOUND,
    UNREADABLE,
    WRONG_ARCHITECTURE,
    BinaryLike,
    Edge,
    FileSystem,
    HeaderCache,
    LoadGraph,
    ReadBinary,
    unique_dirs,
)
from dldoctor.loader.ldcache import CacheEntry, cache_lookup_table, read_ld_so_cache
from dldoctor.resolution import Resolution

TRIPLETS: Dict[str, str] = {
    "x86_64": "x86_64-linux-gnu",
    "aarch64": "aarch64-linux-gnu",
    "x86": "i386-linux-gnu",
    "ppc64le": "powerpc64le-linux-gnu",
    "s390x": "s390x-linux-gnu",
    "riscv64": "riscv64-linux-gnu",
}
RTLD: Dict[str, str] = {
    "x86_64": "/lib64/ld-linux-x86-64.so.2",
    "aarch64": "/lib/ld-linux-aarch64.so.1",
    "x86": "/lib/ld-linux.so.2",
    "ppc64le": "/lib64/ld64.so.2",
    "s390x": "/lib/ld64.so.1",
    "riscv64": "/lib/ld-linux-riscv64-lp64d.so.1",
}
CACHE_FILE = "/etc/ld.so.cache"


@dataclass(frozen=True)
class LinuxConfig:
    """Everything outside the binaries that steers ld.so (a value: can come from a snapshot)."""

    machine: str = "x86_64"
    ld_library_path: Tuple[str, ...] = ()
    cache: Tuple[CacheEntry, ...] = ()
    default_dirs: Tuple[str, ...] = ()
    lib: str = "lib64"  # what $LIB expands to
    platform: str = "x86_64"  # what $PLATFORM expands to (AT_PLATFORM)
    rtld: str | None = None  # ld.so's own path, always loaded
    cwd: str = "."


def default_dirs_for(
    machine: str, bits: int, is_dir: object | None = None
) -> Tuple[Tuple[str, ...], str]:
    """The built-in folders and the ``$LIB`` expansion for this host's glibc layout."""
    triplet = TRIPLETS.get(machine, "")
    if triplet and (os.path.isdir(f"/lib/{triplet}") or os.path.isdir(f"/usr/lib/{triplet}")):
        return (f"/lib/{triplet}", f"/usr/lib/{triplet}", "/lib", "/usr/lib"), f"lib/{triplet}"
    if bits == 64:
        return ("/lib64", "/usr/lib64"), "lib64"
    return ("/lib", "/usr/lib"), "lib"


def split_search_path(value: str) -> Tuple[str, ...]:
    """LD_LIBRARY_PATH as ld.so splits it: on ``:`` and ``;``; an empty entry is ``.``."""
    if not value:
        return ()
    return tuple(part or "." for part in value.replace(";", ":").split(":"))


def host_machine() -> str:
    """This host's machine in BinaryInfo's vocabulary."""
    import platform  # only when the caller gives no machine: keeps `deps` start-up small

    m = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64", "i686": "x86", "i386": "x86"}.get(m, m)


def host_config(env: Mapping[str, str], machine: str | None = None, bits: int = 64) -> LinuxConfig:
    """The configuration of this machine's ld.so for a process with environment ``env``."""
    machine = machine or host_machine()
    dirs, lib = default_dirs_for(machine, bits)
    return LinuxConfig(
        machine=machine,
        ld_library_path=split_search_path(env.get("LD_LIBRARY_PATH", "")),
        cache=read_ld_so_cache(CACHE_FILE),
        default_dirs=dirs,
        lib=lib,
        platform=machine if machine != "x86" else "i686",
        rtld=RTLD.get(machine),
        cwd=os.getcwd(),
    )


def expand_tokens(entry: str, origin: str, config: LinuxConfig) -> str:
    """Expand ``$ORIGIN``, ``$LIB``, ``$PLATFORM`` (and their ``${...}`` forms)."""
    for token, value in (("ORIGIN", origin), ("LIB", config.lib), ("PLATFORM", config.platform)):
        entry = entry.replace("${" + token + "}", value).replace("$" + token, value)
    return entry


@dataclass
class _Object:
    found_at: str  # the path ld.so opened (its folder is $ORIGIN)
    real: str
    info: BinaryLike | None
    names: Set[str]
    loader: _Object | None
    dirs: List[Tuple[str, str]] | None = None  # its search folders, computed once


class LinuxLoader:
    """One simulated process: load a root object and every DT_NEEDED, breadth-first."""

    def __init__(self, read: ReadBinary, fs: FileSystem, config: LinuxConfig) -> None:
        self.read = read
        self.fs = fs
        self.config = config
        self._cache = cache_lookup_table(config.cache, config.machine)
        self._cache_h = HeaderCache(read)

    def _header(self, path: str) -> BinaryLike | None:
        return self._cache_h.get(path)

    def _dir(self, d: str) -> str:
        return os.path.normpath(d if os.path.isabs(d) else os.path.join(self.config.cwd, d))

    def _candidates(self, req: _Object) -> List[Tuple[str, str]]:
        """(rule, folder) in ld.so's order, before the cache and default folders."""
        out: List[Tuple[str, str]] = []
        info = req.info
        if info is None or not info.runpath:
            node: _Object | None = req
            while node is not None:
                ninfo = node.info
                if ninfo is not None and ninfo.rpath and not ninfo.runpath:
                    rule = "rpath" if node is req else "rpath-inherited"
                    origin = os.path.dirname(node.found_at)
                    out += [
                        (rule, self._dir(expand_tokens(d, origin, self.config) or "."))
                        for d in ninfo.rpath
                    ]
                node = node.loader
        out += [("ld_library_path", self._dir(d)) for d in self.config.ld_library_path]
        if info is not None and info.runpath:
            origin = os.path.dirname(req.found_at)
            out += [
                ("runpath", self._dir(expand_tokens(d, origin, self.config) or "."))
                for d in info.runpath
            ]
        return out

    def _search(
        self, req: _Object, name: str, root: BinaryLike
    ) -> Tuple[str | None, str, Tuple[str, ...], Tuple[str, ...], List[str]]:
        """(found path, rule, folders tried, shadowed copies, rejected copies): the rejected
        are the incompatible copies skipped, then the unreadable file that ended the search
        (rule ``unreadable``)."""
        steps: List[Tuple[str, str, str | None]] = []  # (rule, place, candidate path)
        seen_dirs: Set[str] = set()
        if req.dirs is None:
            req.dirs = self._candidates(req)
        for rule, folder in req.dirs:
            if folder in seen_dirs:
                continue
            seen_dirs.add(folder)
            steps.append((rule, folder, self.fs.find(folder, name)))
        cached = self._cache.get(name)
        steps.append(
            ("ld.so.cache", CACHE_FILE, cached if cached and self.fs.is_file(cached) else None)
        )
        for folder in self.config.default_dirs:
            if folder not in seen_dirs:
                seen_dirs.add(folder)
                steps.append(("default-dirs", folder, self.fs.find(folder, name)))
        found: str | None = None
        found_rule = NOT_FOUND
        tried: List[str] = []
        shadowed: List[str] = []
        incompatible: List[str] = []
        for rule, place, candidate in steps:
            if found is None:
                tried.append(place)
                if candidate is None:
                    continue
                info = self._header(candidate)
                if info is None:  # open_verify fails: the load fails here
                    incompatible.append(candidate)
                    return None, UNREADABLE, unique_dirs(tried), (), incompatible
                if info.machine == root.machine and info.bits == root.bits:
                    found, found_rule = candidate, rule
                else:
                    incompatible.append(candidate)
            elif candidate is not None and self.fs.realpath(candidate) != self.fs.realpath(found):
                shadowed.append(candidate)
        return found, found_rule, unique_dirs(tried), unique_dirs(shadowed), incompatible

    def load(self, root_path: str) -> LoadGraph:
        """Load ``root_path`` as ld.so loads a program (as ``ldd`` shows it), in a fresh process.

        One loader can load many roots: headers and folder listings are reused between them."""
        self._cache_h.unreadable.clear()
        root_info = self.read(root_path)
        root = _Object(root_path, self.fs.realpath(root_path), root_info, {root_path}, None)
        if root_info.soname:
            root.names.add(root_info.soname)
        loaded: List[_Object] = [root]
        by_real: Dict[str, _Object] = {root.real: root}
        rtld = self.config.rtld
        if rtld and self.fs.is_file(rtld) and self.fs.realpath(rtld) not in by_real:
            rinfo = self._header(rtld)
            robj = _Object(
                rtld, self.fs.realpath(rtld), rinfo, {rtld, os.path.basename(rtld)}, None
            )
            if rinfo is not None and rinfo.soname:
                robj.names.add(rinfo.soname)
            loaded.append(robj)
            by_real[robj.real] = robj
        edges: List[Edge] = []
        queue: Deque[_Object] = deque([root])
        while queue:
            req = queue.popleft()
            if req.info is None:
                continue
            for name in req.info.needed:
                edges.append(
                    Edge(req.real, self._resolve(req, name, root_info, loaded, by_real, queue))
                )
        missing = [e for e in edges if e.resolution.path is None]
        return LoadGraph(
            root=root.real,
            platform="linux",
            edges=tuple(edges),
            error=missing[0].resolution.rule if missing else None,
            unreadable=tuple(sorted(self._cache_h.unreadable.items())),
        )

    def _resolve(
        self,
        req: _Object,
        name: str,
        root: BinaryLike,
        loaded: List[_Object],
        by_real: Dict[str, _Object],
        queue: Deque[_Object],
    ) -> Resolution:
        if "/" in name:
            path = name if os.path.isabs(name) else os.path.join(self.config.cwd, name)
            if not self.fs.is_file(path):
                return Resolution(name, None, NOT_FOUND, (path,))
            if self._header(path) is None:
                return Resolution(name, None, UNREADABLE, (path,), (path,))
            return self._adopt(req, name, path, "direct-path", (), (), loaded, by_real, queue)
        for obj in loaded:
            if name in obj.names:
                return Resolution(name, obj.real, ALREADY_LOADED)
        found, rule, tried, shadowed, rejected = self._search(req, name, root)
        if found is None:
            if rule == UNREADABLE:
                return Resolution(name, None, UNREADABLE, tried, tuple(rejected))
            if rejected:
                return Resolution(name, None, WRONG_ARCHITECTURE, tried, tuple(rejected))
            return Resolution(name, None, NOT_FOUND, tried)
        return self._adopt(req, name, found, rule, tried, shadowed, loaded, by_real, queue)

    def _adopt(
        self,
        req: _Object,
        name: str,
        path: str,
        rule: str,
        tried: Tuple[str, ...],
        shadowed: Tuple[str, ...],
        loaded: List[_Object],
        by_real: Dict[str, _Object],
        queue: Deque[_Object],
    ) -> Resolution:
        real = self.fs.realpath(path)
        existing = by_real.get(real)
        if existing is not None:
            existing.names.add(name)
            return Resolution(name, real, rule, tried, shadowed)
        info = self._header(path)
        obj = _Object(path, real, info, {name}, req)
        if info is not None and info.soname:
            obj.names.add(info.soname)
        loaded.append(obj)
        by_real[real] = obj
        queue.append(obj)
        return Resolution(name, real, rule, tried, shadowed)


def resolve_linux(root: str, read: ReadBinary, fs: FileSystem, config: LinuxConfig) -> LoadGraph:
    """The load graph of ``root`` under ld.so's rules (see the module docstring)."""
    return LinuxLoader(read, fs, config).load(root)
