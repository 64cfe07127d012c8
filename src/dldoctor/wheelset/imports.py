"""What importing each installed package would load, and what changes with import order.

Each distribution's import is modelled as CPython loads it (DESIGN §6): every extension
module (``.pyd``) with ``LoadLibraryExW(path, 0x1100)``, after the DLL folders the package
registers with ``os.add_dll_directory``, as ``conditions/preloads.toml`` states them (applied
by :mod:`dldoctor.loader.frameworks`, which ``dldoctor check`` uses too):

* torch: ``torch\\lib``, then every ``torch\\lib\\*.dll`` is loaded with 0x1100 first
  (``torch/__init__.py: _load_dll_libraries``, alphabetical as glob returns them on NTFS);
* a delvewheel-repaired package: its ``<package>.libs`` folder (delvewheel's patched
  ``__init__.py`` calls ``os.add_dll_directory`` on it);
* any package folder named ``libs`` or ``lib`` holding DLLs (paddle\\libs): added the same
  way. That paddle adds it is an assumption of this model (its ``__init__`` also edits PATH,
  which 0x1100 loads ignore).

Which extension modules a real import touches, and in which order, depends on the package's
Python code; the model loads all of them in path order, then retries those that failed once
others have loaded, until no more load. A module that finds a DLL only because a sibling
loaded it is fine: tensorflow's ``compiler\\...\\_pywrap_converter_api.pyd`` needs
``_pywrap_tensorflow_common.dll`` from ``tensorflow\\python``, which ``import tensorflow`` has
already loaded through ``tensorflow\\python\\_pywrap_tensorflow_internal.pyd`` (the loader
reuses a loaded module by base name). A name no module of the set can load still fails.

The first-loaded copy of a DLL name serves every
later request for that name (the loader's loaded-module list), so the package imported
first decides which copy of a shared name the whole process uses.
"""

from __future__ import annotations

import itertools
import ntpath
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from dldoctor.binary.vendored import same_vendored_library
from dldoctor.conditions.windows import load_vc_runtime
from dldoctor.loader.frameworks import ImportPlan, import_plan
from dldoctor.loader.graph import FAILURES
from dldoctor.loader.windows import CPYTHON_EXTENSION_FLAGS, LoadOutcome, WindowsConfig, WindowsProcess
from dldoctor.wheelset.install import VirtualInstall
from dldoctor.wheelset.tree import SYSTEM, VirtualFile
from dldoctor.wheelset.wheel import Wheel, source_steps

MAX_PAIR_DISTS = 6  # ordered pairs simulated per conflicting name


@dataclass(frozen=True)
class Failure:
    dist: str
    target: str
    name: str
    requester: str
    rule: str
    tried: Tuple[str, ...]


def plan_for(vi: VirtualInstall, wheel: Wheel) -> ImportPlan:
    """``import <wheel>`` in the virtual venv, as conditions/preloads.toml describes it."""
    lay = vi.layout
    natives = [m.path for m in wheel.members if m.native]
    return import_plan(wheel.name, "windows", lay.site_packages, natives, ntpath, vi.tree.is_dir,
                       prefix=lay.prefix, base_prefix=lay.base_prefix, source=source_steps(wheel))


class Importer:
    """One simulated python.exe process of the virtual install."""

    def __init__(self, vi: VirtualInstall) -> None:
        self.vi = vi
        lay = vi.layout
        self.process = WindowsProcess(
            vi.tree.read,
            vi.tree,
            WindowsConfig(machine="x86_64", app_dir=lay.base_prefix, system32=lay.system32,
                          system=ntpath.join(lay.windows, "System"), windows=lay.windows, cwd=lay.prefix),
        )
        self.failures: List[Failure] = []

    def import_dist(self, plan: ImportPlan) -> None:
        for folder in plan.dll_directories:
            self.process.add_dll_directory(folder)
        waiting = list(plan.loads)
        failed: List[LoadOutcome] = []
        while waiting:  # each round loads at least one more module, or stops
            failed = []
            for target in waiting:
                outcome = self.process.load_library(target, CPYTHON_EXTENSION_FLAGS)
                if outcome.error:
                    failed.append(outcome)
            if len(failed) == len(waiting):
                break
            waiting = [o.target for o in failed]
        self.failures.extend(_failure(plan.dist, o) for o in failed)

    def bound(self) -> Dict[str, str]:
        """Loaded DLL base name (lower case) -> the file the process holds for it."""
        return dict(self.process.modules)


def _failure(dist: str, outcome: LoadOutcome) -> Failure:
    for edge in outcome.graph.edges:
        res = edge.resolution
        if res.rule in FAILURES:
            return Failure(dist, outcome.target, res.name, edge.requester, res.rule, res.tried)
    return Failure(dist, outcome.target, outcome.failed_name or "", outcome.target, str(outcome.error), ())


@dataclass(frozen=True)
class Conflict:
    """One DLL name bound to different files depending on which package is imported first."""

    name: str
    copies: Dict[str, VirtualFile]  # dist -> the copy its own import binds
    winners: Dict[Tuple[str, str], str]  # (first, second) -> path the process ends up with


@dataclass(frozen=True)
class Analysis:
    plans: Tuple[ImportPlan, ...]
    alone: Dict[str, Dict[str, str]]  # dist -> its isolated import's bindings
    failures: Tuple[Failure, ...]
    conflicts: Tuple[Conflict, ...]
    together: Dict[str, str]  # bindings after importing everything in the given order


def _same_content(a: VirtualFile, b: VirtualFile) -> bool:
    """Same file, same bytes, one delvewheel name (``msvcp140-<hash>.dll``: the hash names
    the original DLL; copies differ only by delvewheel's patching, see binary.vendored), or
    one file version of one name: PyQt6's Qt6\\bin\\msvcp140.dll 14.44.35211.0 is the build the
    redistributable given as ``--vc-redist 14.44`` puts in System32 (a version stated with
    fewer parts matches at its own precision)."""
    return (a.path == b.path or (a.content is not None and a.content == b.content)
            or same_vendored_library(a.path, b.path) or _same_version(a, b)
            or _assumed_runtime(a) or _assumed_runtime(b))


def _assumed_runtime(f: VirtualFile) -> bool:
    """The redistributable's DLL the model puts in System32 when no ``--vc-redist`` is given:
    a placeholder of no known version (missing-vc-runtime says it is absent), so it differs
    from no copy."""
    return f.owner == SYSTEM and not f.version and ntpath.basename(f.path).lower() in _vc_dlls()


@lru_cache(maxsize=1)
def _vc_dlls() -> FrozenSet[str]:
    return frozenset(n.lower() for n in load_vc_runtime().dlls)


def _same_version(a: VirtualFile, b: VirtualFile) -> bool:
    if ntpath.basename(a.path).lower() != ntpath.basename(b.path).lower() or not a.version or not b.version:
        return False
    pa, pb = a.version.split("."), b.version.split(".")
    n = min(len(pa), len(pb))
    return n >= 2 and pa[:n] == pb[:n]


def _needed_by_name(vi: VirtualInstall, alone: Dict[str, Dict[str, str]]) -> Set[str]:
    """DLL names (lower case) that some loaded binary imports by name.

    Only these can be shadowed by another package's copy: an extension module (``.pyd``) is
    loaded by CPython by its full path, and two ``_cyutility.cp311-win_amd64.pyd`` in two
    packages load side by side as two modules; the loader's reuse by base name applies to
    name requests (a PE import or a bare ``LoadLibrary("x.dll")``), not to path loads.
    """
    out: Set[str] = set()
    for bound in alone.values():
        for path in bound.values():
            file = vi.tree.get(path)
            if file is not None and file.info is not None:
                out.update(n.lower() for n in (*file.info.needed, *file.info.delay_needed))
    return out


def imported_first(wheels: Sequence[Wheel]) -> Dict[str, List[str]]:
    """dist -> the dists of the set that ``import dist`` imports before its own extension
    modules, dependencies first: its declared requirements (not extras) and the packages its
    ``__init__.py`` imports at module level (torchaudio 2.11 imports torch without requiring
    it), transitively. Read from metadata and source, never run."""
    by_name: Dict[str, Wheel] = {canonicalize_name(w.name): w for w in wheels}
    by_top: Dict[str, str] = {top: canonicalize_name(w.name) for w in wheels for top in w.top_level}
    direct: Dict[str, List[str]] = {}
    for key, w in by_name.items():
        deps: List[str] = []
        for line in w.requires:
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            if req.marker is not None and "extra" in str(req.marker):
                continue
            deps.append(canonicalize_name(req.name))
        deps += [by_top[m] for m in source_steps(w).imports if m in by_top]
        direct[key] = [d for d in dict.fromkeys(deps) if d in by_name and d != key]
    return {w.name: [by_name[d].name for d in _dependencies_first(key, direct)] for key, w in by_name.items()}


def _dependencies_first(key: str, direct: Dict[str, List[str]]) -> List[str]:
    """``key``'s transitive dependencies in ``direct``, each after its own (cycles cut)."""
    order: List[str] = []
    seen = {key}
    stack: List[Tuple[str, int]] = [(d, 0) for d in reversed(direct[key])]
    while stack:
        d, state = stack.pop()
        if state == 1:
            order.append(d)
            continue
        if d in seen:
            continue
        seen.add(d)
        stack.append((d, 1))
        stack += [(dep, 0) for dep in reversed(direct[d]) if dep not in seen]
    return order


def analyse(vi: VirtualInstall, order: Optional[Sequence[str]] = None) -> Analysis:
    plans = {w.name: plan_for(vi, w) for w in vi.wheels}
    names = list(order) if order else [w.name for w in vi.wheels]
    alone: Dict[str, Dict[str, str]] = {}
    failures: List[Failure] = []
    prior = imported_first(vi.wheels)
    for dist in names:
        imp = Importer(vi)
        imp.import_dist(plans[dist])
        alone[dist] = imp.bound()
        if imp.failures and prior.get(dist):
            # as Python runs it: what the package imports first is in the process already
            # (torchvision's _C.pyd finds c10.dll because `import torch` loaded it)
            imp = Importer(vi)
            for before in prior[dist]:
                imp.import_dist(plans[before])
            imp.failures = []
            imp.import_dist(plans[dist])
        failures.extend(imp.failures)
    conflicts = []
    by_name = _needed_by_name(vi, alone)
    all_names = sorted({n for b in alone.values() for n in b} & by_name)
    for name in all_names:
        copies: Dict[str, VirtualFile] = {}
        for dist, bound in alone.items():
            file = vi.tree.get(bound[name]) if name in bound else None
            if file is not None:
                copies[dist] = file
        distinct: List[VirtualFile] = []
        for f in copies.values():
            if not any(_same_content(f, g) for g in distinct):
                distinct.append(f)
        if len(distinct) < 2:
            continue
        dists = list(copies)[:MAX_PAIR_DISTS]
        winners = {}
        for first, second in itertools.permutations(dists, 2):
            if _same_content(copies[first], copies[second]):
                continue
            imp = Importer(vi)
            imp.import_dist(plans[first])
            imp.import_dist(plans[second])
            got = imp.process.module(name)
            if got is not None:
                winners[(first, second)] = got
        conflicts.append(Conflict(name, copies, winners))
    together = Importer(vi)
    for dist in names:
        together.import_dist(plans[dist])
    return Analysis(tuple(plans[d] for d in names), alone, tuple(failures), tuple(conflicts), together.bound())
