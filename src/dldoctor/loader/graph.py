"""Shapes shared by the three loader models: the injected seams and the resolved graph.

The models never open files themselves. They get two seams, so that one model can run on
this machine's disk, on a Wine prefix, or on a virtual tree of a foreign (Windows, macOS)
wheel set:

* ``read``: path -> a binary's header facts (:class:`BinaryLike`, what
  ``dldoctor.binary.read_binary`` returns); it raises on a file that is not a binary.
* ``fs``: a :class:`FileSystem` view that answers "is there a file called NAME in FOLDER"
  (case-insensitively for Windows) and "what is the real path of this file".

Every model returns a :class:`LoadGraph`: every edge requester -> needed name, in the
order the real loader meets them, each edge carrying the :class:`~dldoctor.model.Resolution`
(rule that found it, folders tried, copies shadowed).
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterable, Iterator, List, Protocol, Tuple

from dldoctor.resolution import Resolution

NOT_FOUND = "not-found"
WRONG_ARCHITECTURE = "wrong-architecture"
#: The search found a file by that name that is not a loadable image (truncated, not a
#: binary, corrupt headers). ld.so and the Windows loader stop there and fail the load
#: ("file too short", "invalid ELF header"; Wine: 126); dyld tries its next candidate.
UNREADABLE = "unreadable"
ALREADY_LOADED = "already-loaded"
ROOT = "root"
#: Rules that mean the loader could not satisfy a request (the load fails).
FAILURES = (NOT_FOUND, WRONG_ARCHITECTURE, UNREADABLE)


class BinaryLike(Protocol):
    """The fields of ``dldoctor.binary.BinaryInfo`` the loader models rely on."""

    @property
    def path(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def machine(self) -> str: ...
    @property
    def bits(self) -> int: ...
    @property
    def soname(self) -> str | None: ...
    @property
    def needed(self) -> Tuple[str, ...]: ...
    @property
    def rpath(self) -> Tuple[str, ...]: ...
    @property
    def runpath(self) -> Tuple[str, ...]: ...


ReadBinary = Callable[[str], BinaryLike]


class PathModule(Protocol):
    """``posixpath`` or ``ntpath``: how a file system view spells its paths."""

    sep: str

    def join(self, a: str, *p: str) -> str: ...
    def dirname(self, p: str) -> str: ...
    def basename(self, p: str) -> str: ...
    def isabs(self, s: str) -> bool: ...


class FileSystem(Protocol):
    """The one seam through which a model looks at folders."""

    @property
    def pathmod(self) -> PathModule: ...

    def find(self, folder: str, name: str) -> str | None:
        """The path of the file ``name`` inside ``folder``, or None."""

    def is_file(self, path: str) -> bool:
        """Whether ``path`` names an existing file."""

    def realpath(self, path: str) -> str:
        """The canonical path (symlinks resolved) that identifies one loaded object."""


class HostFileSystem:
    """This machine's disk. ``case_insensitive`` models NTFS lookups (the Windows model on a
    Wine prefix or an unpacked Windows wheel): folder listings are cached per folder, which
    also keeps a whole-environment run at one ``listdir`` per folder."""

    pathmod: PathModule = posixpath

    def __init__(self, case_insensitive: bool = False) -> None:
        self.case_insensitive = case_insensitive
        self._listings: Dict[str, Dict[str, str]] = {}
        self._real: Dict[str, str] = {}

    def _listing(self, folder: str) -> Dict[str, str]:
        cached = self._listings.get(folder)
        if cached is None:
            try:
                names = os.listdir(folder or ".")
            except OSError:
                names = []
            cached = {(n.lower() if self.case_insensitive else n): n for n in sorted(names)}
            self._listings[folder] = cached
        return cached

    def find(self, folder: str, name: str) -> str | None:
        key = name.lower() if self.case_insensitive else name
        actual = self._listing(folder).get(key)
        if actual is None:
            return None
        path = posixpath.join(folder, actual) if folder else actual
        return path if os.path.isfile(path) else None

    def is_file(self, path: str) -> bool:
        if self.case_insensitive:
            return self.find(posixpath.dirname(path), posixpath.basename(path)) is not None
        return os.path.isfile(path)

    def realpath(self, path: str) -> str:
        real = self._real.get(path)
        if real is None:
            real = os.path.realpath(path)
            self._real[path] = real
        return real


class HeaderCache:
    """Headers read once per path; a file that fails to read is remembered with why (a found
    but unreadable library is a fact to report, never a crash of the model).

    ``unreadable`` lists the failed files met since the caller last cleared it (one load),
    even those whose failure was cached by an earlier load."""

    def __init__(self, read: ReadBinary) -> None:
        self.read = read
        self.headers: Dict[str, BinaryLike | None] = {}
        self.errors: Dict[str, str] = {}
        self.unreadable: Dict[str, str] = {}

    def get(self, path: str) -> BinaryLike | None:
        if path not in self.headers:
            try:
                self.headers[path] = self.read(path)
            except Exception as exc:
                self.headers[path] = None
                self.errors[path] = str(exc) or type(exc).__name__
        info = self.headers[path]
        if info is None:
            self.unreadable[path] = self.errors[path]
        return info


@dataclass(frozen=True)
class Edge:
    """One request: ``requester`` (a real path) asked for a name; how it was resolved."""

    requester: str
    resolution: Resolution


@dataclass(frozen=True)
class LoadGraph:
    """What one load would bring into the process, in the loader's own order."""

    root: str
    platform: str
    edges: Tuple[Edge, ...]
    error: str | None = None  # a predicted load failure: one of FAILURES (or a Windows code)
    unreadable: Tuple[Tuple[str, str], ...] = ()  # (path, why) files found but not readable
    notes: Tuple[str, ...] = field(default=())

    def children(self, requester: str) -> Iterator[Resolution]:
        """The resolutions requested by one object, in request order."""
        return iter(self.by_requester().get(requester, ()))

    def by_requester(self) -> Dict[str, List[Resolution]]:
        """requester -> its resolutions in request order (one pass over the edges, so a
        walk over a graph of thousands of objects stays linear)."""
        index: Dict[str, List[Resolution]] = {}
        for edge in self.edges:
            index.setdefault(edge.requester, []).append(edge.resolution)
        return index

    def unique(self) -> List[Edge]:
        """Every dependency once: the first edge of each name (the one that decides)."""
        seen: Dict[str, Edge] = {}
        for edge in self.edges:
            key = edge.resolution.name
            if self.platform == "windows":
                key = key.lower()
            seen.setdefault(key, edge)
        return list(seen.values())

    @property
    def missing(self) -> Tuple[Edge, ...]:
        """Edges the loader could not satisfy (not found, only a wrong-architecture copy, or
        an unreadable file where the search stopped)."""
        return tuple(
            e for e in self.edges if e.resolution.path is None and is_failure(e.resolution)
        )


def is_failure(resolution: Resolution) -> bool:
    """Whether a resolution means the load would fail."""
    return resolution.rule in FAILURES


def unique_dirs(dirs: Iterable[str]) -> Tuple[str, ...]:
    """Folders in first-seen order without repeats (a loader tries each folder once)."""
    seen: Dict[str, None] = {}
    for d in dirs:
        seen.setdefault(d, None)
    return tuple(seen)
