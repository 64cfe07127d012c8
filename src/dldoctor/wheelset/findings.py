"""Findings of a wheel set's import simulation: what fails to load, which DLL names are
bound to different copies depending on import order, and which orders are known to break."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

from packaging.version import InvalidVersion, Version

from dldoctor.checks import finding
from dldoctor.checks._missing import fallback_extension
from dldoctor.checks._native_graph import is_extension
from dldoctor.checks.environment import unfit_distributions
from dldoctor.conditions import version_key
from dldoctor.conditions.openmp import SIDE_BY_SIDE_FIX, clash, family_rank, openmp_runtime
from dldoctor.conditions.windows import load_vc_runtime
from dldoctor.loader.graph import FAILURES, UNREADABLE, WRONG_ARCHITECTURE
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot
from dldoctor.wheelset.imports import Analysis, Conflict
from dldoctor.wheelset.install import VirtualInstall
from dldoctor.wheelset.overlaps import overlaps
from dldoctor.wheelset.tree import PYTHON, SYSTEM, VirtualFile

# The slugs this simulation answers for a wheel set (snapshot checks of these are not run).
SLUGS = (
    "missing-shared-library", "wrong-architecture", "dll-version-conflict", "import-order-conflict", "duplicate-openmp",
    "corrupt-install",
)
# Snapshot checks that can fire on a virtual install (it has the wheels' files, tags, headers
# and version files, the VC++ runtime it is told about, and no GPU, registry, PATH or RECORD):
# what `wheels` reports besides SLUGS. Every snapshot check runs; this list only documents
# which of them can say something (the docs pages' "Detected by").
CHECKED_SLUGS = (
    "missing-vc-runtime", "known-bad-release", "unsupported-python", "gpu-build-without-gpu", "duplicate-install",
)


def _short(vi: VirtualInstall, path: str) -> str:
    site = vi.layout.site_packages
    if path.lower().startswith(site.lower() + "\\"):
        return path[len(site) + 1:]
    return path


def _describe(vi: VirtualInstall, f: VirtualFile) -> str:
    where = "System32" if f.owner == SYSTEM else ("python.exe's folder" if f.owner == PYTHON else _short(vi, f.path))
    return f"{where} ({f.version})" if f.version else where


def missing(vi: VirtualInstall, analysis: Analysis, snap: Snapshot) -> Iterator[Finding]:
    """What fails to load. A wheel built for another Python or machine (unsupported-python says
    so, once) is left out: its modules' python311.dll and win32 .pyd are that one cause."""
    by_name: Dict[Tuple[str, str], List[str]] = {}
    tried: Dict[Tuple[str, str], Tuple[str, ...]] = {}
    unfit = unfit_distributions(snap)
    for f in analysis.failures:
        if f.dist in unfit:
            continue
        key = (f.name.lower(), f.rule)
        by_name.setdefault(key, [])
        if f.requester not in by_name[key]:
            by_name[key].append(f.requester)
        tried.setdefault(key, f.tried)
    for (name, rule), requesters in sorted(by_name.items()):
        who = ", ".join(sorted({_short(vi, r) for r in requesters}))
        if rule not in FAILURES:  # a module named by full path failed (193): the file loop says why
            continue
        if rule == UNREADABLE:
            yield finding("corrupt-install", f"{name}, needed by {who}: the loader finds a file by that name "
                          "that is not a loadable DLL, and stops there",
                          [("needed by", _short(vi, r)) for r in requesters[:3]], snapshot=snap)
            continue
        if rule == WRONG_ARCHITECTURE:
            yield finding("wrong-architecture", f"{name}, needed by {who}, exists only for another architecture",
                          [("needed by", _short(vi, r)) for r in requesters[:3]], snapshot=snap)
            continue
        owners = {f.dist for f in analysis.failures if f.name.lower() == name and f.rule == rule}
        fallback = next((fallback_extension(d, "", requesters) for d in sorted(owners)), None)
        if fallback is not None and len(owners) == 1:
            # numba imports tbbpool in try/except and uses another threading layer (native.toml)
            yield finding(
                "missing-shared-library",
                f"{name}, needed by {who}, is in no wheel; the module is optional and the package falls back "
                "without it",
                [("needed by", _short(vi, r)) for r in requesters[:3]]
                + [("falls back to", fallback.fallback), ("source", fallback.source)],
                fix=f"Nothing to do unless you want the faster path: install the package that provides {name}.",
                snapshot=snap, severity=Severity.INFO)
            continue
        driver = name in vi.profile.driver_dlls
        msg = (f"{name} comes with the NVIDIA driver; {who} cannot load without one" if driver else
               f"{name}, needed by {who}, is in no wheel and not in a stock Windows")
        yield finding(
            "missing-shared-library", msg,
            [("needed by", _short(vi, r)) for r in requesters[:3]] + [("searched", "; ".join(tried[(name, rule)]))],
            snapshot=snap, severity=Severity.INFO if driver else None,
        )
    for file in vi.tree.files():
        info = file.info
        if file.owner in (SYSTEM, PYTHON) or file.owner in unfit:
            continue
        if info is None:  # an extension module Python cannot import; a DLL only if needed (above)
            yield finding("corrupt-install", f"{_short(vi, file.path)}: not a loadable DLL ({file.error})",
                          [("file", file.path), ("wheel of", file.owner)], snapshot=snap,
                          fix=f"Download the {file.owner} wheel again (pip download --no-cache-dir): this member "
                          "is damaged; if a fresh copy is the same, report it to the package",
                          severity=None if is_extension(file.path) else Severity.WARNING)
        elif info.format != "pe" or info.machine != "x86_64":
            # Python imports an extension module by path: another machine's .pyd fails its import.
            # A DLL fails only when something needs it by name (the loop above) or loads it by
            # path; sounddevice ships libportaudio{64bit,32bit,arm64}.dll and loads the one for
            # the running machine, so a DLL for another machine alone is info.
            ext = is_extension(file.path)
            yield finding("wrong-architecture",
                          f"{_short(vi, file.path)} is {info.format} {info.machine}, not an x64 Windows "
                          + ("module" if ext else "DLL; no module of the set needs it by name"),
                          [("file", file.path), ("platform", vi.profile.platform)], snapshot=snap,
                          fix="" if ext else "Nothing to do unless a package loads this file itself: packages "
                          "often ship one DLL per machine and load the matching one",
                          severity=None if ext else Severity.INFO)


def _needs(dist: str, name: str, snap: Snapshot) -> Optional[Tuple[str, str, Tuple[str, ...]]]:
    """(minimum version, why, sources) when ``dist`` as installed needs a newer ``name``."""
    for need in load_vc_runtime().minimums:
        d = snap.distribution(need.dist)
        if d is None or need.dll != name or d.name != dist:
            continue
        try:
            if Version(d.version) in need.specifier:
                return need.version, need.why, need.sources
        except InvalidVersion:
            continue
    return None


def conflicts(vi: VirtualInstall, analysis: Analysis, snap: Snapshot) -> Iterator[Finding]:
    """Copies whose winner the import order decides. The interpreter's own copy (vcruntime140.dll,
    which python3XX.dll loads before any package) wins in every order: there is no order to get
    wrong. Copies of the VC++ runtime at or above the release from which they serve each other's
    binaries (vc_runtime.toml) are interchangeable: which one wins is info; an older one that can
    win stays a warning (PyQt5's 14.26 msvcp140.dll before onnxruntime), and a release known to
    need more than an order gives it is an import-order-conflict of its own."""
    vc = load_vc_runtime()
    names = {n.lower() for n in vc.dlls}
    for c in analysis.conflicts:
        won = {vi.tree.get(p) for p in set(c.winners.values())}
        if (len(won) == 1 and all(f is not None and f.owner == PYTHON for f in won)) or (
                c.name.lower() in vc.python_app_dir and any(f.owner == PYTHON for f in c.copies.values())):
            pass  # the interpreter's copy, which python3XX.dll loads before any package: every order
        elif c.name.lower() in names and _interchangeable(c, vc.interchangeable_from):
            yield _conflict(vi, c, snap, Severity.INFO)
        else:
            yield _conflict(vi, c, snap)
        yield from _breaking_orders(vi, c, snap)


def _interchangeable(c: Conflict, floor: str) -> bool:
    """Every copy has a known version at or above ``floor``."""
    versions = [f.version for f in c.copies.values()]
    return bool(floor) and all(v and version_key(v) >= version_key(floor) for v in versions)


def _conflict(vi: VirtualInstall, c: Conflict, snap: Snapshot, severity: Optional[Severity] = None) -> Finding:
    copies = [(d, f) for d, f in c.copies.items()]
    orders = []
    for (first, second), path in sorted(c.winners.items()):
        got = _describe(vi, vi.tree.get(path) or VirtualFile(path, ""))
        orders.append((f"import {first} before {second}", f"{second} gets {got}"))
    summary = "; ".join(f"{d}: {_describe(vi, f)}" for d, f in copies)
    return finding(
        "dll-version-conflict",
        f"{c.name}: {len({f.path for _, f in copies})} different copies ({summary}); "
        "the first package imported decides",
        [*((f"{d}'s copy", _describe(vi, f)) for d, f in copies), *orders],
        fix="Import the package whose copy is newest first, everywhere (or keep these packages in separate "
        "environments); the loader reuses the first-loaded copy by name",
        snapshot=snap,
        severity=severity,
    )


def _breaking_orders(vi: VirtualInstall, c: Conflict, snap: Snapshot) -> Iterator[Finding]:
    for (first, second), path in sorted(c.winners.items()):
        need = _needs(second, c.name, snap)
        got = vi.tree.get(path)
        if need is None or got is None or not got.version:
            continue
        minimum, why, sources = need
        if version_key(got.version) < version_key(minimum):
            yield finding(
                "import-order-conflict",
                f"importing {first} before {second} gives {second} {c.name} {got.version} (< {minimum}): {why}",
                [("loaded copy", _short(vi, path)), ("needs", f"{c.name} >= {minimum}"),
                 *(("source", s) for s in sources)],
                fix=f"import {second} before {first}, or upgrade {first} to a release that does not ship {c.name}",
                snapshot=snap,
                severity=Severity.ERROR,
            )


def openmp(vi: VirtualInstall, analysis: Analysis, snap: Snapshot) -> Iterator[Finding]:
    found = [(openmp_runtime(n), n) for n in analysis.together]
    names = [n for _, n in sorted((family_rank(r), n) for r, n in found if r)]
    if len({r for r, _ in found if r}) < 2:
        return  # hash-named copies of one runtime (delvewheel's vcomp140-<hash>.dll): by design
    loaded = [(n, analysis.together[n]) for n in names]
    why = clash(r for r, _ in found if r)
    yield finding(
        "duplicate-openmp",
        f"{len(names)} OpenMP runtimes in one process after importing every wheel: {', '.join(names)}",
        [(n, _describe(vi, vi.tree.get(p) or VirtualFile(p, ""))) for n, p in loaded]
        + [("order", ", ".join(p.dist for p in analysis.plans)),
           ("known clash", why or "none: two thread pools side by side (see the page)")],
        fix="" if why else SIDE_BY_SIDE_FIX,
        snapshot=snap,
        severity=None if why else Severity.INFO,
    )


def all_findings(vi: VirtualInstall, analysis: Analysis, snap: Snapshot) -> List[Finding]:
    out: List[Finding] = []
    for gen in (missing, conflicts, openmp):
        out.extend(gen(vi, analysis, snap))
    out.extend(overlaps(vi, snap))
    return out
