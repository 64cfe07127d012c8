"""dyld's search for Mach-O install names, reproduced without loading anything.

For an install name requested by image R (``LC_LOAD_DYLIB`` and friends, in ``needed``),
dyld tries, in this order; the rule names are what each Resolution carries:

1. ``already-loaded``: an image whose install name (``soname``) or load path equals the name.
2. ``dyld_library_path``: DYLD_LIBRARY_PATH folders, with the name's leaf (any install name).
3. the install name itself, after expansion:

   * ``@rpath/X`` -> ``rpath(@rpath)``: each LC_RPATH of R, then of the image that loaded R,
     and so on up to the main executable (dyld's rpath stack); LC_RPATH entries may use
     ``@loader_path`` (the folder of the image that carries the LC_RPATH) and
     ``@executable_path``;
   * ``@loader_path/X`` -> ``loader_path``: R's folder;
   * ``@executable_path/X`` -> ``executable_path``: the main executable's folder (the root
     when none is given, as for ``deps``);
   * an absolute path -> ``absolute``.

4. ``dyld-shared-cache``: an absolute name under ``/usr/lib/`` or ``/System/Library/`` that is
   not on disk: system libraries live in the shared cache since macOS 11; treated as present.
5. ``dyld_fallback_library_path``: DYLD_FALLBACK_LIBRARY_PATH (default ``/usr/local/lib``,
   ``/usr/lib``; ``$HOME/lib`` is left out) with the leaf.

A candidate that exists but is not a readable Mach-O (truncated, not a binary) is skipped
and dyld tries the next one, listing it among the paths it "tried" ("not a mach-o file");
when nothing else answers, the rule is ``unreadable``.

Not modelled: DYLD_FRAMEWORK_PATH, DYLD_IMAGE_SUFFIX, weak imports, SIP's stripping of DYLD_*
variables for protected binaries, architecture mismatches within readable files.
"""

from __future__ import annotations

import posixpath
from collections import deque
from dataclasses import dataclass
from typing import Deque, Dict, List, Set, Tuple

from dldoctor.loader.graph import (
    ALREADY_LOADED,
    NOT_FOUND,
    UNREADABLE,
    BinaryLike,
    Edge,
    FileSystem,
    HeaderCache,
    LoadGraph,
    ReadBinary,
    is_failure,
    unique_dirs,
)
from dldoctor.resolution import Resolution

SHARED_CACHE_PREFIXES = ("/usr/lib/", "/System/Library/")


@dataclass(frozen=True)
class MacConfig:
    """Environment of the simulated process."""

    dyld_library_path: Tuple[str, ...] = ()
    dyld_fallback_library_path: Tuple[str, ...] = ("/usr/local/lib", "/usr/lib")
    executable: str | None = None


@dataclass
class _Image:
    path: str
    real: str
    info: BinaryLike | None
    loader: _Image | None


class MacLoader:
    """One simulated process loading a root image and its dependencies breadth-first."""

    def __init__(self, read: ReadBinary, fs: FileSystem, config: MacConfig) -> None:
        self.read, self.fs, self.config = read, fs, config
        self._cache_h = HeaderCache(read)

    def _header(self, path: str) -> BinaryLike | None:
        return self._cache_h.get(path)

    def _expand(self, entry: str, image: _Image, exe_dir: str) -> str:
        entry = entry.replace("@loader_path", posixpath.dirname(image.path))
        return entry.replace("@executable_path", exe_dir)

    def _candidates(self, req: _Image, name: str, exe_dir: str) -> List[Tuple[str, str]]:
        leaf = posixpath.basename(name)
        out = [
            ("dyld_library_path", posixpath.join(d, leaf)) for d in self.config.dyld_library_path
        ]
        if name.startswith("@rpath/"):
            rest = name[len("@rpath/") :]
            node: _Image | None = req
            while node is not None:
                rpaths = node.info.rpath if node.info is not None else ()
                out += [
                    ("rpath(@rpath)", posixpath.join(self._expand(r, node, exe_dir), rest))
                    for r in rpaths
                ]
                node = node.loader
        elif name.startswith("@loader_path/"):
            out.append(("loader_path", self._expand(name, req, exe_dir)))
        elif name.startswith("@executable_path/"):
            out.append(("executable_path", self._expand(name, req, exe_dir)))
        else:
            out.append(("absolute", name))
        return out

    def load(self, root_path: str) -> LoadGraph:
        """Load ``root_path`` as the main executable would be loaded."""
        root_info = self.read(root_path)
        root = _Image(root_path, self.fs.realpath(root_path), root_info, None)
        exe_dir = posixpath.dirname(self.config.executable or root_path)
        loaded: List[_Image] = [root]
        names: Dict[str, _Image] = {root_path: root}
        if root_info.soname:
            names[root_info.soname] = root
        edges: List[Edge] = []
        queue: Deque[_Image] = deque([root])
        while queue:
            req = queue.popleft()
            for name in req.info.needed if req.info is not None else ():
                if name in names:
                    edges.append(Edge(req.real, Resolution(name, names[name].real, ALREADY_LOADED)))
                    continue
                res, image = self._find(req, name, exe_dir, loaded)
                edges.append(Edge(req.real, res))
                if image is not None:
                    names[name] = image
                    if image not in loaded:
                        loaded.append(image)
                        queue.append(image)
                        if image.info is not None and image.info.soname:
                            names.setdefault(image.info.soname, image)
        missing = [e for e in edges if is_failure(e.resolution)]
        return LoadGraph(
            root.real,
            "macos",
            tuple(edges),
            error=missing[0].resolution.rule if missing else None,
            unreadable=tuple(sorted(self._cache_h.unreadable.items())),
        )

    def _find(
        self, req: _Image, name: str, exe_dir: str, loaded: List[_Image]
    ) -> Tuple[Resolution, _Image | None]:
        tried: List[str] = []
        bad: List[str] = []  # files found that are not readable Mach-O: dyld moves on
        seen: Set[str] = set()

        def hit(path: str) -> _Image | None:
            real = self.fs.realpath(path)
            image = next((i for i in loaded if i.real == real), None)
            if image is None:
                image = _Image(path, real, self._header(path), req)
                if image.info is None:
                    bad.append(path)
                    return None
            return image

        for rule, path in self._candidates(req, name, exe_dir):
            path = posixpath.normpath(path)
            if path in seen:
                continue
            seen.add(path)
            tried.append(path)
            if self.fs.is_file(path):
                image = hit(path)
                if image is not None:
                    return Resolution(name, image.real, rule, unique_dirs(tried)), image
        if name.startswith(SHARED_CACHE_PREFIXES):
            return Resolution(name, name, "dyld-shared-cache", unique_dirs(tried)), None
        leaf = posixpath.basename(name)
        for folder in self.config.dyld_fallback_library_path:
            path = posixpath.join(folder, leaf)
            tried.append(path)
            if self.fs.is_file(path):
                image = hit(path)
                if image is not None:
                    res = Resolution(name, image.real, "dyld_fallback_library_path", unique_dirs(tried))
                    return res, image
        if bad:
            return Resolution(name, None, UNREADABLE, unique_dirs(tried), tuple(bad)), None
        return Resolution(name, None, NOT_FOUND, unique_dirs(tried)), None


def resolve_macos(root: str, read: ReadBinary, fs: FileSystem, config: MacConfig) -> LoadGraph:
    """The load graph of ``root`` under dyld's rules (see the module docstring)."""
    return MacLoader(read, fs, config).load(root)
