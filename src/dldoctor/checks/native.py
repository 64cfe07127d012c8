"""Environment-wide native-library checks: each library judged in the context that loads it.

The Linux load graphs come from :mod:`dldoctor.checks._native_graph` (ld.so's model run on
the snapshot's facts, one graph per extension module). Checks that need only headers
(wrong-architecture, dll-version-conflict, duplicate-openmp, unreadable extension modules)
also judge Windows and macOS snapshots. A library that is there but not a loadable binary
is corrupt-install (truncated by an interrupted copy, emptied, overwritten): its headers say
nothing about its architecture, and the loader fails on it rather than looking elsewhere.
"""

from __future__ import annotations

import posixpath
from typing import Dict, Iterator, List, Optional, Set, Tuple

from packaging.utils import canonicalize_name

from dldoctor.binary.vendored import repair_hash
from dldoctor.checks import check, finding
from dldoctor.checks._companions import explained_dists
from dldoctor.checks._missing import (
    SHOWN,
    fallback_extension,
    loaded_by_requirements,
    on_demand_plugins,
    optional_plugin,
    provider_plugins,
    shipped_names,
    system_library_fix,
)
from dldoctor.checks._native_graph import (
    EnvGraphs,
    basename,
    compatible,
    dist_of,
    env_graphs,
    is_extension,
    load_name,
)
from dldoctor.checks._util import pip_of
from dldoctor.conditions.native import native_data
from dldoctor.conditions.openmp import SIDE_BY_SIDE_FIX, clash, openmp_runtime
from dldoctor.loader.graph import NOT_FOUND, UNREADABLE, WRONG_ARCHITECTURE
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.loaderfacts import interpreter_machine
from dldoctor.snapshot.model import Library, Snapshot

FORMATS = {"linux": "elf", "windows": "pe", "macos": "macho"}


def _linux_facts(snap: Snapshot) -> str:
    if snap.host.os != "linux":
        return f"the {snap.host.os or 'unknown'} loader is not modelled for whole environments yet"
    if snap.loader is None:
        return "the snapshot has no loader facts (taken without headers or by an older dldoctor)"
    return ""


def _roots_by_edge(g: EnvGraphs, rules: Tuple[str, ...]) -> Dict[Tuple[str, str], List[str]]:
    """(requester, name) -> the roots whose load meets that failing request."""
    out: Dict[Tuple[str, str], List[str]] = {}
    for graph in g.graphs:
        for edge in graph.edges:
            if edge.resolution.rule in rules:
                out.setdefault((edge.requester, edge.resolution.name), []).append(graph.root)
    return out


def _provided_by_interpreter(name: str) -> bool:
    return any(p.search(name) for p in native_data().interpreter_provided)


@check("missing-shared-library", applies=_linux_facts)
def missing_shared_library(snap: Snapshot) -> Iterator[Finding]:
    g = env_graphs(snap)
    if g is None:
        return
    tried: Dict[Tuple[str, str], Tuple[str, ...]] = {}
    for graph in g.graphs:
        for edge in graph.edges:
            if edge.resolution.rule == NOT_FOUND:
                tried.setdefault((edge.requester, edge.resolution.name), edge.resolution.tried)
    plugins: Dict[str, List[str]] = {}
    on_demand: Dict[str, Dict[str, Set[str]]] = {}  # dist -> plugin -> names it misses
    # A satellite built for another torch (or CUDA variant) misses torch's and CUDA's names
    # by construction: companion-mismatch states that one cause, with these names as evidence.
    explained = set(explained_dists(snap))
    loaded_first: Dict[str, Set[str]] = {}
    shipped = shipped_names(snap)
    for (requester, name), roots in sorted(_roots_by_edge(g, (NOT_FOUND,)).items()):
        if _provided_by_interpreter(name) or canonicalize_name(dist_of(g, requester)) in explained:
            continue
        if name in loaded_by_requirements(snap, g, dist_of(g, requester), loaded_first):
            continue  # `import torch` loaded libc10.so before this torch extension needs it
        fallback = fallback_extension(dist_of(g, requester), requester, roots)
        if fallback is not None:
            yield finding(
                "missing-shared-library",
                f"{basename(requester)} ({dist_of(g, requester)}) needs {name}, which ld.so cannot find; the module "
                "is optional and the package falls back without it",
                [("needed by", requester), ("needed name", name), ("falls back to", fallback.fallback),
                 ("source", fallback.source)],
                fix=f"Nothing to do unless you want the faster path: install the library that provides {name}.",
                snapshot=snap,
                severity=Severity.INFO,
            )
            continue
        plugin = optional_plugin(requester, roots)
        if plugin:
            plugins.setdefault(plugin, []).append(name)
            continue
        if all(r in g.plugins for r in roots):
            for r in dict.fromkeys(roots):
                on_demand.setdefault(dist_of(g, r), {}).setdefault(r, set()).add(name)
            continue
        via = [r for r in dict.fromkeys(roots) if r != requester]
        yield finding(
            "missing-shared-library",
            f"{basename(requester)} ({dist_of(g, requester)}) needs {name}, which ld.so cannot find",
            [("needed by", requester), ("needed name", name),
             *(("loaded by", r) for r in via[:SHOWN]),
             *(("tried", t) for t in tried[(requester, name)])],
            fix=system_library_fix(name, shipped),
            snapshot=snap,
        )
    yield from on_demand_plugins(snap, on_demand)
    yield from provider_plugins(snap, g, plugins)


def _machine_of(lib: Library) -> str:
    info = lib.info or {}
    return f"{info.get('machine')} {info.get('bits')}-bit {info.get('format')}"


@check("wrong-architecture")
def wrong_architecture(snap: Snapshot) -> Iterator[Finding]:
    """Extension modules built for another machine, and needed names only such copies answer."""
    machine = interpreter_machine(snap.host.machine, snap.interpreter.bits)
    bits = snap.interpreter.bits
    want = FORMATS.get(snap.host.os)
    ours = f"{machine} {bits}-bit {want}"
    for lib in snap.libraries:
        info = lib.info
        if info is None or not is_extension(lib.path):
            continue
        if info.get("format") == "macho" and machine in info.get("archs", ()):
            continue
        if compatible(lib, machine, bits) and info.get("format") == want:
            continue
        yield finding(
            "wrong-architecture",
            f"{basename(lib.path)} ({lib.dist or 'no package'}) is a {_machine_of(lib)} module; "
            f"this Python is {ours} and cannot load it",
            [("module", lib.path), ("built for", _machine_of(lib)), ("interpreter", ours)],
            snapshot=snap,
        )
    g = env_graphs(snap)
    if g is None:
        return
    shown: Set[Tuple[str, str]] = set()
    for graph in g.graphs:
        for edge in graph.edges:
            res = edge.resolution
            if res.rule != WRONG_ARCHITECTURE or (edge.requester, res.name) in shown:
                continue
            shown.add((edge.requester, res.name))
            copies = [g.libraries[p] for p in res.shadowed if p in g.libraries]
            yield finding(
                "wrong-architecture",
                f"{basename(edge.requester)} needs {res.name}; the only copies are built for "
                f"another machine ({', '.join(sorted({_machine_of(c) for c in copies})) or '?'})",
                [("needed by", edge.requester), *(("incompatible copy", p) for p in res.shadowed[:SHOWN]),
                 ("interpreter", ours)],
                snapshot=snap,
            )


def unreadable_why(lib: Library) -> str:
    """Why a library's headers could not be read, "" when they were or the file is gone (a
    missing RECORD file is corrupt-install's RECORD finding already)."""
    if lib.info is not None or not lib.error or lib.error.startswith("[Errno 2]"):
        return ""
    return lib.error


def _reinstall(snap: Snapshot, dist: Optional[str]) -> str:
    d = next((d for d in snap.distributions if dist and d.name == dist), None)
    if d is None:
        return ""
    return f"{pip_of(snap)} install --force-reinstall --no-deps --no-cache-dir {d.name}=={d.version}"


@check("corrupt-install")
def unreadable_libraries(snap: Snapshot) -> Iterator[Finding]:
    """Extension modules that are not loadable binaries (truncated, emptied, overwritten),
    and libraries the loader finds first by a needed name but cannot load: ld.so stops at
    such a file ("file too short", "invalid ELF header") even when a good copy comes later.
    Other unreadable files are not judged: nothing is known to load them."""
    shown: Set[str] = set()
    for lib in snap.libraries:
        why = unreadable_why(lib)
        if not why or not is_extension(lib.path):
            continue
        shown.add(lib.path)
        yield finding(
            "corrupt-install",
            f"{basename(lib.path)} ({lib.dist or 'no package'}) is not a loadable module: {why}",
            [("module", lib.path), ("error", why)],
            fix=_reinstall(snap, lib.dist), snapshot=snap,
        )
    g = env_graphs(snap)
    if g is None:
        return
    stops: Dict[Tuple[str, str], str] = {}  # (requester, name) -> the file the search stopped at
    for graph in g.graphs:
        for e in graph.edges:
            if e.resolution.rule == UNREADABLE and e.resolution.shadowed:
                stops.setdefault((e.requester, e.resolution.name), e.resolution.shadowed[-1])
    for (requester, name), roots in sorted(_roots_by_edge(g, (UNREADABLE,)).items()):
        path = stops.get((requester, name))
        if path is None or path in shown:
            continue
        shown.add(path)
        owner = g.library(path)
        why = (unreadable_why(owner) if owner else "") or "not a loadable binary"
        via = [r for r in dict.fromkeys(roots) if r != requester]
        fix = _reinstall(snap, owner.dist if owner else None) or (
            f"Replace or remove {path}: it belongs to no package of this environment (reinstall the "
            "system package that owns it, or take its folder off LD_LIBRARY_PATH)")
        yield finding(
            "corrupt-install",
            f"{basename(requester)} needs {name}; ld.so finds {path} ({dist_of(g, path)}) first "
            f"and cannot load it: {why}",
            [("needed by", requester), ("unreadable file", path), ("error", why),
             *(("loaded by", r) for r in via[:SHOWN])],
            fix=fix, snapshot=snap,
        )


def _content_key(snap: Snapshot, lib: Library) -> Tuple[object, ...]:
    """Two copies differ when their size, sampled digest or version definitions differ, unless
    they carry one repair-tool name (auditwheel's ``libgfortran-040039e1.so.5.0.0`` in numpy and
    scipy): that hash names the original library, the bytes differ only by patchelf's rewrite."""
    hashed = repair_hash(lib.path)
    if hashed is not None:
        return ("vendored", _fold(snap, basename(lib.path)))
    facts = snap.loader
    size = facts.sizes.get(lib.path) if facts else None
    digest = facts.digests.get(lib.path) if facts else None
    info = lib.info or {}
    return (size, digest, tuple(info.get("version_defs", ())), info.get("file_version"))


def _fold(snap: Snapshot, name: str) -> str:
    return name.lower() if snap.host.os == "windows" else name


def _needers(snap: Snapshot, name: str) -> List[str]:
    key = _fold(snap, name)
    return [x.path for x in snap.libraries
            if any(_fold(snap, str(n)) == key for n in (x.info or {}).get("needed", ()))]


def _owner(lib: Library) -> str:
    """The distribution that ships ``lib``, or "no package" (copied in by hand, conda, a
    develop install: found by scanning sys.path, listed by no RECORD)."""
    return lib.dist or "no package"


def _owner_key(lib: Library) -> str:
    """Copies owned by no package count as different owners per folder."""
    return lib.dist or f"\0{posixpath.dirname(lib.path.replace(chr(92), '/'))}"


@check("dll-version-conflict")
def dll_version_conflict(snap: Snapshot) -> Iterator[Finding]:
    """One load name, different content, in several packages: the first package imported
    loads its copy and every later request by that name reuses it (ld.so matches a loaded
    SONAME; Windows matches a loaded module's base name). An extension module is imported by
    its path, which never matches another file: two packages' ``_qhull`` modules are two
    modules, unless a library asks for one by name. So is an ELF plugin (no SONAME: Qt's
    libqxcb.so in PyQt5 and in opencv-python): ld.so records a loaded object by its SONAME, and
    one without it is found by no later request for its name."""
    needed = {_fold(snap, str(n)) for x in snap.libraries for n in (x.info or {}).get("needed", ())}
    groups: Dict[str, List[Library]] = {}
    for lib in snap.libraries:
        key = _fold(snap, load_name(lib))
        info = lib.info
        by_path = info is not None and info.get("format") == "elf" and not info.get("soname")
        if info is not None and (key in needed or not (is_extension(lib.path) or by_path)):
            groups.setdefault(key, []).append(lib)
    for copies in groups.values():
        if len({_owner_key(c) for c in copies}) < 2:
            continue
        by_content: Dict[Tuple[object, ...], List[Library]] = {}
        for c in copies:
            by_content.setdefault(_content_key(snap, c), []).append(c)
        if len(by_content) < 2:
            continue
        name = load_name(copies[0])
        dists = sorted({_owner(c) for c in copies})
        order = "; ".join(f"import {d} first: {d}'s copy serves every package" for d in dists[:3]
                          if d != "no package") or "whichever copy a module loads first"
        sizes = snap.loader.sizes if snap.loader else {}
        yield finding(
            "dll-version-conflict",
            f"{name} is shipped with different content by {', '.join(dists)}; the first one "
            f"loaded wins for all of them ({order})",
            [*((f"copy of {_owner(c)}", f"{c.path} ({sizes.get(c.path, '?')} bytes)") for c in copies),
             *(("needed by", p) for p in _needers(snap, name)[:SHOWN])],
            snapshot=snap,
        )


@check("duplicate-openmp")
def duplicate_openmp(snap: Snapshot) -> Iterator[Finding]:
    """Two OpenMP runtimes that break one another (openmp.toml's [[clash]]: libiomp5 next to
    LLVM libomp aborts with OMP Error #15) warn; other pairs (libgomp next to libiomp5, as
    paddlepaddle ships) are two thread pools that work side by side: info. Several copies of one runtime under
    hash-unique names (auditwheel's libgomp-<hash>.so.1 in scikit-learn and torch) are what
    auditwheel and delvewheel make on purpose so that wheels never share one: no finding."""
    found: Dict[str, Tuple[str, Library]] = {}  # load name -> (runtime, first copy)
    libs = list(snap.libraries)
    g = env_graphs(snap)
    if g is not None:  # system copies the environment's modules really bind to
        reached = {e.resolution.path for gr in g.graphs for e in gr.edges if e.resolution.path}
        libs += [g.libraries[p] for p in sorted(reached) if p not in g.env_paths and p in g.libraries]
    for lib in libs:
        if lib.info is None:
            continue
        runtime = openmp_runtime(load_name(lib)) or openmp_runtime(basename(lib.path))
        if runtime:
            found.setdefault(_fold(snap, load_name(lib)), (runtime, lib))
    runtimes = sorted({r for r, _ in found.values()})
    if len(runtimes) < 2:
        return  # copies of one runtime (auditwheel's libgomp-<hash> next to libgomp.so.1): see the page
    why = clash(runtimes)
    yield finding(
        "duplicate-openmp",
        f"{len(found)} OpenMP runtimes can load into one process ({', '.join(runtimes)}): "
        + (why if why else "two thread pools side by side, a pair not known to clash (see the page)"),
        [(f"{runtime} ({lib.dist or 'system'})", lib.path) for runtime, lib in found.values()],
        fix="" if why else SIDE_BY_SIDE_FIX,
        snapshot=snap,
        severity=None if why else Severity.INFO,
    )


def ld_library_path_wins(snap: Snapshot) -> List[Tuple[str, str, str, str]]:
    """(folder copy, shadowed wheel copy, name, requester) for every request that an
    LD_LIBRARY_PATH folder answers although a package's own copy would have served it."""
    g = env_graphs(snap)
    if g is None:
        return []
    out: Dict[Tuple[str, str], Tuple[str, str, str, str]] = {}
    for graph in g.graphs:
        for edge in graph.edges:
            res = edge.resolution
            if res.rule != "ld_library_path" or not res.path:
                continue
            for copy in res.shadowed:
                if copy in g.env_paths:
                    out.setdefault((res.path, copy), (res.path, copy, res.name, edge.requester))
    return [out[k] for k in sorted(out)]


def _drop_from_ld_library_path(snap: Snapshot, folders: List[str]) -> str:
    """The command that takes ``folders`` out of LD_LIBRARY_PATH and keeps the rest."""
    drop = {posixpath.normpath(f) for f in folders}
    keep = [e.path for e in snap.search_path if e.var == "LD_LIBRARY_PATH" and posixpath.normpath(e.path) not in drop]
    cmd = f"export LD_LIBRARY_PATH={':'.join(keep)}" if keep else "unset LD_LIBRARY_PATH"
    return (f"Run `{cmd}` (the packages load their own copies through RUNPATH; a toolkit's lib64 on "
            "LD_LIBRARY_PATH only takes their place), and remove it where LD_LIBRARY_PATH is set.")


@check("ld-library-path-override", applies=_linux_facts)
def ld_library_path_override(snap: Snapshot) -> Iterator[Finding]:
    facts = snap.loader
    digests = facts.digests if facts else {}
    wins = ld_library_path_wins(snap)
    differing = [w for w, c, _, _ in wins if not (digests.get(w) is not None and digests.get(w) == digests.get(c))]
    fix = _drop_from_ld_library_path(snap, [posixpath.dirname(w) for w in differing])
    for winner, wheel_copy, name, requester in wins:
        same = winner not in differing
        dist = next((x.dist for x in snap.libraries if x.path == wheel_copy), None) or "a package"
        yield finding(
            "ld-library-path-override",
            f"LD_LIBRARY_PATH's {winner} wins over {dist}'s own {name}"
            + (" (identical content today)" if same else ""),
            [("wins", winner), ("shadowed", wheel_copy), ("needed by", requester),
             ("precedence", "LD_LIBRARY_PATH is searched before the needer's RUNPATH")],
            fix=fix if not same else "",
            snapshot=snap,
            severity=Severity.INFO if same else None,
        )
