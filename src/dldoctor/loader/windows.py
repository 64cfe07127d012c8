"""The Windows loader's DLL search, reproduced without loading anything.

:class:`WindowsProcess` is one simulated process: the modules it has loaded, its
``AddDllDirectory`` folders and its PATH. ``load_library(target, flags)`` answers what
``LoadLibraryExW(target, NULL, flags)`` would do: which file every imported name binds to
and the error code (0, 126 not found, 193 wrong architecture).

For every imported name (and a bare target name) the loader tries, in this order; the rule
names are what each :class:`~dldoctor.model.Resolution` carries:

1. ``already-loaded``: a module with that base name is already in the process
   (case-insensitive), whatever folder it came from.
2. ``api-set``: ``api-ms-win-*`` / ``ext-ms-*`` contracts, virtual, never on disk.
3. ``known-dll``: the KnownDLLs list (``conditions/profiles/windows_dlls.json``, with provenance); always
   System32's copy.
4. folders, depending on ``flags``:

   * any ``LOAD_LIBRARY_SEARCH_*`` flag (0x100..0x1000): ``dll-load-dir`` (0x100: the folder
     of the DLL named in *this* call, used for all of its transitive imports too), then
     ``app-dir`` (0x200), ``add_dll_directory`` (0x400: ``AddDllDirectory`` folders, whose
     mutual order Windows leaves unspecified; the model uses the order they were added),
     ``system32`` (0x800); 0x1000 = 0x200|0x400|0x800. **PATH is not searched.** CPython >= 3.8
     loads extension modules with 0x1100 (:data:`CPYTHON_EXTENSION_FLAGS`);
   * otherwise (plain ``LoadLibraryW``, flags 0; SafeDllSearchMode): ``app-dir`` (the exe's
     folder; with ``LOAD_WITH_ALTERED_SEARCH_PATH`` (0x8) and a full path: ``altered-dir``,
     the DLL's folder, instead), ``system32``, ``system`` (16-bit System), ``windows``,
     ``cwd``, then ``path`` (PATH, in order). The loaded DLL's own folder is **not** searched
     for its imports.

5. ``system32-assumed``: no System32 folder was given (a foreign tree) and the name is a DLL
   every Windows ships (``os_dlls`` in the data file).

A file found with another machine type is skipped and the search goes on (Wine's
``search_dll_file`` does the same); if only such copies exist the rule is
``wrong-architecture`` and the load fails with 126, as under Wine (Windows may answer 193
there: unverified). A file found that is not a loadable image (truncated, not a PE) ends
the search instead, even with a good copy in a later folder: rule ``unreadable``, the load
fails with 126 under Wine (tests/data/wine scenarios 13-14). Naming a wrong-architecture
or unreadable file directly fails with 193. A missing import fails the whole call with 126
and nothing it brought in stays loaded. Delay-load
imports are not followed (they load on first call). DllMain's return value (1114 when it
returns FALSE) is only known at run time: the model predicts the binding, not the init.
"""

from __future__ import annotations

import ntpath
from dataclasses import dataclass, field
from typing import Iterator, List, Tuple

from dldoctor.conditions.windows import WindowsDllData, load_windows_dll_data
from dldoctor.errors import DldoctorError
from dldoctor.loader.graph import (
    ALREADY_LOADED,
    FAILURES,
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
from dldoctor.resolution import Resolution

LOAD_WITH_ALTERED_SEARCH_PATH = 0x8
LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR = 0x100
LOAD_LIBRARY_SEARCH_APPLICATION_DIR = 0x200
LOAD_LIBRARY_SEARCH_USER_DIRS = 0x400
LOAD_LIBRARY_SEARCH_SYSTEM32 = 0x800
LOAD_LIBRARY_SEARCH_DEFAULT_DIRS = 0x1000
SEARCH_FLAGS = 0x1F00
CPYTHON_EXTENSION_FLAGS = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR

ERROR_SUCCESS = 0
ERROR_MOD_NOT_FOUND = 126
ERROR_BAD_EXE_FORMAT = 193
ERROR_DLL_INIT_FAILED = 1114

RUNTIME_ONLY_NOTE = "DllMain results (WinError 1114) are only known at run time; not predicted"
@dataclass(frozen=True)
class WindowsConfig:
    """The process facts that steer the search (folders as the file system view spells them)."""

    machine: str = "x86_64"
    app_dir: str | None = None
    system32: str | None = None
    system: str | None = None
    windows: str | None = None
    cwd: str | None = None
    path: Tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadOutcome:
    """What one LoadLibrary(Ex)W call would return."""

    target: str
    flags: int
    error: int
    graph: LoadGraph
    failed_name: str | None = None
    notes: Tuple[str, ...] = field(default=(RUNTIME_ONLY_NOTE,))


def split_windows_path(value: str) -> Tuple[str, ...]:
    """PATH as the loader reads it: ``;``-separated, empty entries dropped, quotes removed."""
    return tuple(p.strip().strip('"') for p in value.split(";") if p.strip().strip('"'))


class WindowsProcess:
    """One simulated Windows process (see the module docstring for the search order)."""

    def __init__(
        self,
        read: ReadBinary,
        fs: FileSystem,
        config: WindowsConfig,
        data: WindowsDllData | None = None,
    ) -> None:
        self.read = read
        self.fs = fs
        self.config = config
        self.data = data or load_windows_dll_data()
        self.path: Tuple[str, ...] = config.path
        self.dll_directories: List[str] = []
        self.modules: List[Tuple[str, str]] = []  # (lower base name, real path) in load order
        self._cache_h = HeaderCache(read)

    # -- process state -------------------------------------------------------------------
    def add_dll_directory(self, folder: str) -> None:
        """``os.add_dll_directory`` / ``AddDllDirectory``."""
        if folder not in self.dll_directories:
            self.dll_directories.append(folder)

    def module(self, name: str) -> str | None:
        """``GetModuleHandleW(name)`` + ``GetModuleFileNameW``: the loaded file of that name."""
        key = name.lower()
        return next((real for base, real in self.modules if base == key), None)

    def preload(self, path: str) -> None:
        """Mark a module as already in the process (``--preloaded``)."""
        real = self.fs.realpath(path)
        if all(r != real for _, r in self.modules):
            self.modules.append((self._base(path).lower(), real))

    # -- search ----------------------------------------------------------------------------
    def _base(self, path: str) -> str:
        return ntpath.basename(path) if "\\" in path else self.fs.pathmod.basename(path)

    def _header(self, path: str) -> BinaryLike | None:
        return self._cache_h.get(path)

    def search_order(self, flags: int, load_dir: str | None) -> List[Tuple[str, str]]:
        """(rule, folder) pairs in the order the loader tries folders for these flags."""
        cfg = self.config
        out: List[Tuple[str, str | None]] = []
        if flags & SEARCH_FLAGS:
            default = bool(flags & LOAD_LIBRARY_SEARCH_DEFAULT_DIRS)
            if flags & LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR:
                out.append(("dll-load-dir", load_dir))
            if default or flags & LOAD_LIBRARY_SEARCH_APPLICATION_DIR:
                out.append(("app-dir", cfg.app_dir))
            if default or flags & LOAD_LIBRARY_SEARCH_USER_DIRS:
                out += [("add_dll_directory", d) for d in self.dll_directories]
            if default or flags & LOAD_LIBRARY_SEARCH_SYSTEM32:
                out.append(("system32", cfg.system32))
        else:
            if flags & LOAD_WITH_ALTERED_SEARCH_PATH and load_dir is not None:
                out.append(("altered-dir", load_dir))
            else:
                out.append(("app-dir", cfg.app_dir))
            out += [("system32", cfg.system32), ("system", cfg.system), ("windows", cfg.windows)]
            out.append(("cwd", cfg.cwd))
            out += [("path", d) for d in self.path]
        return [(rule, d) for rule, d in out if d]

    def _find(
        self, name: str, order: List[Tuple[str, str]], pending: List[Tuple[str, str]]
    ) -> Resolution:
        key = name.lower()
        for base, real in self.modules + pending:
            if base == key:
                return Resolution(name, real, ALREADY_LOADED)
        if key.startswith(self.data.api_set_prefixes):
            return Resolution(name, None, "api-set")
        if key in self.data.known_dlls:
            sys32 = self.config.system32
            hit = self.fs.find(sys32, name) if sys32 else None
            return Resolution(name, self.fs.realpath(hit) if hit else None, "known-dll")
        found: Tuple[str, str] | None = None
        tried: List[str] = []
        shadowed: List[str] = []
        wrong: List[str] = []
        for rule, folder in order:
            hit = self.fs.find(folder, name)
            if found is None:
                tried.append(folder)
                if hit is None:
                    continue
                info = self._header(hit)
                if info is None:  # not an image: Wine's search stops here (not only on 126)
                    return Resolution(name, None, UNREADABLE, unique_dirs(tried), (*wrong, hit))
                if info.format == "pe" and info.machine == self.config.machine:
                    found = (rule, hit)
                else:
                    wrong.append(hit)
            elif hit is not None and self.fs.realpath(hit) != self.fs.realpath(found[1]):
                shadowed.append(hit)
        if found is not None:
            return Resolution(
                name,
                self.fs.realpath(found[1]),
                found[0],
                unique_dirs(tried),
                unique_dirs(shadowed),
            )
        if self.config.system32 is None and key in self.data.os_dlls:
            return Resolution(name, None, "system32-assumed", unique_dirs(tried))
        if wrong:
            return Resolution(name, None, WRONG_ARCHITECTURE, unique_dirs(tried), tuple(wrong))
        return Resolution(name, None, NOT_FOUND, unique_dirs(tried))

    # -- loading ----------------------------------------------------------------------------
    def load_library(self, target: str, flags: int = 0) -> LoadOutcome:
        """Predict ``LoadLibraryExW(target, NULL, flags)`` (flags 0 = ``LoadLibraryW``)."""
        pathmod = self.fs.pathmod
        has_dir = "\\" in target or "/" in target
        load_dir = pathmod.dirname(target) if has_dir else None
        order = self.search_order(flags, load_dir)
        edges: List[Edge] = []
        pending: List[Tuple[str, str]] = []
        if has_dir:
            if not self.fs.is_file(target):
                res = Resolution(self._base(target), None, NOT_FOUND, (target,))
                return self._outcome(target, flags, ERROR_MOD_NOT_FOUND, [Edge("", res)], res.name)
            top = Resolution(self._base(target), self.fs.realpath(target), "direct-path")
        else:
            top = self._find(target, order, pending)
        edges.append(Edge("", top))
        if top.path is None:
            if top.rule in FAILURES:
                code = ERROR_MOD_NOT_FOUND if top.rule == NOT_FOUND else ERROR_BAD_EXE_FORMAT
                return self._outcome(target, flags, code, edges, top.name)
            return self._outcome(target, flags, ERROR_SUCCESS, edges, None)
        if any(real == top.path for _, real in self.modules):
            return self._outcome(target, flags, ERROR_SUCCESS, edges, None)
        info = self._header(top.path)
        if info is None or info.format != "pe" or info.machine != self.config.machine:
            return self._outcome(target, flags, ERROR_BAD_EXE_FORMAT, edges, top.name)
        failure = self._map(top.name, top.path, order, pending, edges)
        if failure is not None:
            return self._outcome(target, flags, ERROR_MOD_NOT_FOUND, edges, failure.name)
        self.modules += pending
        return self._outcome(target, flags, ERROR_SUCCESS, edges, None)

    def _imports(self, real: str) -> Iterator[str]:
        info = self._header(real)
        return iter(info.needed if info is not None else ())

    def _map(
        self,
        name: str,
        real: str,
        order: List[Tuple[str, str]],
        pending: List[Tuple[str, str]],
        edges: List[Edge],
    ) -> Resolution | None:
        """Bring one module and, depth-first in import order, its imports; first failure.

        Walked with an explicit stack: a chain of thousands of DLLs must not hit Python's
        recursion limit."""
        pending.append((self._base(real).lower(), real))
        stack: List[Tuple[str, Iterator[str]]] = [(real, self._imports(real))]
        while stack:
            requester, imports = stack[-1]
            dep = next(imports, None)
            if dep is None:
                stack.pop()
                continue
            res = self._find(dep, order, pending)
            edges.append(Edge(requester, res))
            if res.rule in FAILURES:
                return res
            if res.path is None or res.rule in (ALREADY_LOADED, "known-dll"):
                continue
            pending.append((self._base(res.path).lower(), res.path))
            stack.append((res.path, self._imports(res.path)))
        return None

    def _outcome(
        self, target: str, flags: int, error: int, edges: List[Edge], failed: str | None
    ) -> LoadOutcome:
        root = edges[0].resolution.path or target
        graph = LoadGraph(
            root=root,
            platform="windows",
            edges=tuple(e for e in edges if e.requester),
            error=None if error == 0 else str(error),
            unreadable=tuple(sorted(self._cache_h.unreadable.items())),
            notes=(RUNTIME_ONLY_NOTE,),
        )
        return LoadOutcome(target, flags, error, graph, failed)


def parse_flags(text: str) -> int:
    """``--load-flags`` value: hexadecimal with or without ``0x``."""
    try:
        value = int(text, 16)
    except ValueError:
        raise DldoctorError(f"--load-flags: not a hexadecimal number: {text!r}") from None
    if not 0 <= value <= 0xFFFFFFFF:
        raise DldoctorError(f"--load-flags: out of range: {text!r}")
    return value
