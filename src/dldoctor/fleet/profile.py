"""A Snapshot's profile: the facts that can explain "works on that machine, fails here".

Each fact is keyed ``(area, subject)`` (``("framework", "torch")``, ``("env",
"LD_LIBRARY_PATH")``, ``("library", "libgomp.so.1")``) and its value is a normalised string.
Paths inside the environment are written ``<env>/...`` and paths inside the base
interpreter ``<python>/...``, so the same environment installed at two places, or under a
symlinked folder, has one profile; what stays different is what can matter: versions,
builds, the driver, which copy of a native library the loader model picks, the variables
that steer loading. Facts a snapshot could not learn (no driver probe, no loader facts on
Windows or macOS) are left out rather than compared as "absent".
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Dict, Hashable, Iterable, List, Optional, Set, Tuple

from packaging.utils import canonicalize_name

from dldoctor.checks._native_graph import env_graphs
from dldoctor.conditions.differences import weights
from dldoctor.snapshot.collect import PLACEHOLDER_HOME
from dldoctor.snapshot.model import Framework, Snapshot

Key = Tuple[str, str]
Profile = Dict[Key, str]
NOT_FOUND = "(not found)"
SAME_CONTENT = " (same content as the environment's own copy)"
# Version keys a framework's version file repeats; the build is what remains.
_VERSION_KEYS = frozenset({"__version__", "version", "git_version", "cuda", "cuda_version", "full_version"})
_UNSET = (None, False, "", "None", "none", "OFF", "0")


class Normaliser:
    """Rewrites a snapshot's paths so that two copies of one environment compare equal."""

    def __init__(self, snap: Snapshot) -> None:
        interp = snap.interpreter
        roots: List[Tuple[str, str]] = []
        for root, mark in ((interp.prefix, "<env>"), (interp.base_prefix, "<python>")):
            if root:
                roots.append((root.rstrip("/\\"), mark))
        home = snap.host.home
        if home == "~":  # a snapshot file: its home was redacted, then read back as a placeholder
            home = PLACEHOLDER_HOME["windows" if snap.host.os == "windows" else "other"]
        if home and home.strip("/\\"):
            roots.append((home.rstrip("/\\"), "~"))
        loader = snap.loader
        if loader is not None and interp.prefix:  # a venv under a symlinked folder
            prefix = interp.prefix.rstrip("/\\")
            for path, real in loader.realpaths.items():
                if path.startswith(prefix + "/"):
                    rest = path[len(prefix):]
                    if real.endswith(rest) and len(real) > len(rest):
                        roots.append((real[: -len(rest)], "<env>"))
        # Longest first: a venv inside the base interpreter's folder is still <env>.
        self.roots = sorted(set(roots), key=lambda r: -len(r[0]))

    def path(self, value: str) -> str:
        for root, mark in self.roots:
            if value == root or value.startswith((root + "/", root + "\\")):
                return mark + value[len(root):]
        return value

    def value(self, value: str, sep: str) -> str:
        """A path list (PATH, LD_LIBRARY_PATH) entry by entry; any other value as a path."""
        return sep.join(self.path(p) for p in value.split(sep))


def build_label(fw: Framework) -> str:
    """"CUDA 12.4" / "CPU" / "build unknown", then the other build facts its files state."""
    cuda = fw.cuda
    head = f"CUDA {cuda}" if cuda else ("CPU" if cuda is None else "build unknown")
    extra = [f"{k}={v}" for k, v in sorted(fw.values.items()) if k not in _VERSION_KEYS and v not in _UNSET]
    return "; ".join([head, *extra])


def profile(snap: Snapshot) -> Profile:
    """The facts of ``snap`` that diff compares and fleet groups by."""
    norm = Normaliser(snap)
    host, interp = snap.host, snap.interpreter
    facts: Profile = {}
    facts[("platform", "")] = f"{host.os} {host.machine} {interp.bits}-bit"
    major_minor = ".".join(str(v) for v in interp.version_info[:2]) or interp.version
    facts[("python", "")] = f"{interp.implementation} {major_minor}" + (" free-threaded" if interp.gil_disabled else "")
    facts[("python-patch", "")] = interp.version
    if interp.env_kind:
        facts[("environment-kind", "")] = interp.env_kind
    if host.libc:
        facts[("libc", "")] = host.libc
    _gpu(snap, facts)
    dists_of_frameworks: Set[str] = {canonicalize_name(fw.dist) for fw in snap.frameworks}
    for fw in snap.frameworks:
        facts[("framework", fw.name)] = fw.version
        facts[("framework-build", fw.name)] = build_label(fw)
    versions: Dict[str, Set[str]] = {}
    for d in snap.distributions:
        dist: str = canonicalize_name(d.name)
        if dist not in dists_of_frameworks:
            versions.setdefault(dist, set()).add(d.version)
    for pkg, vs in versions.items():
        facts[("package", pkg)] = " + ".join(sorted(vs))
    table = weights()
    sep = ";" if host.os == "windows" else ":"
    for name, value in snap.env.items():
        if table.variable(name) is not None:
            facts[("env", name)] = norm.value(value, sep)
    facts.update(library_facts(snap, norm))
    return facts


def _gpu(snap: Snapshot, facts: Profile) -> None:
    gpu = snap.host.gpu
    if gpu.source == "not checked" or gpu.error == "skipped":
        return  # the driver was not asked: neither present nor absent
    facts[("driver-presence", "")] = "present" if gpu.driver_present else "absent"
    if gpu.driver_present:
        cuda = f" (CUDA {gpu.cuda_driver_version})" if gpu.cuda_driver_version else ""
        facts[("driver", "")] = f"{gpu.driver_version or 'unknown'}{cuda}"
        devices = sorted(f"{d.name} (sm {d.compute_capability or '?'})" for d in gpu.devices)
        if devices:
            facts[("gpu", "")] = ", ".join(devices)


_GRAPH_MEMO: OrderedDict[Hashable, List[Tuple[Key, str]]] = OrderedDict()
_MEMO_SIZE = 16


def _info_key(info: Optional[Dict[str, object]]) -> Tuple[Tuple[str, str], ...]:
    """A library's header facts but its path, as sorted (name, str(value)) pairs (built in C:
    a fleet builds this for every library of every machine)."""
    rest = dict(info or {})
    rest.pop("path", None)
    return tuple(sorted(zip(rest, map(str, rest.values()))))


def graph_inputs(snap: Snapshot, norm: Normaliser) -> Hashable:
    """Everything the loader model's choice of files depends on, cheap to build and compare:
    machines whose snapshots differ elsewhere (a working folder, a variable) but agree on this
    share one run of the model."""
    loader = snap.loader
    assert loader is not None
    libs = tuple((x.path, x.error, _info_key(x.info)) for x in (*snap.libraries, *loader.outside))
    search = tuple((e.var, e.path) for e in snap.search_path)
    # The working folder matters only to a relative search folder (ld.so resolves it from there).
    folders = [e.path for e in snap.search_path]
    for x in (*snap.libraries, *loader.outside):
        folders += [str(p) for k in ("rpath", "runpath") for p in (x.info or {}).get(k) or ()]
    relative = any(f and not f.startswith(("/", "$ORIGIN", "${ORIGIN}")) for f in folders)
    return (libs, tuple(sorted(loader.sizes.items())), tuple(sorted(loader.cache.items())),
            tuple(sorted(loader.realpaths.items())), tuple(sorted(loader.digests.items())), loader.default_dirs,
            loader.lib, search, snap.interpreter.cwd if relative else "", snap.host.machine,
            snap.interpreter.bits, tuple((d.name, d.location, d.native_libs) for d in snap.distributions),
            tuple(norm.roots))


def library_facts(snap: Snapshot, norm: Normaliser) -> Iterable[Tuple[Key, str]]:
    """:func:`resolved_libraries`, run once per distinct set of loader inputs."""
    if snap.loader is None or snap.host.os != "linux":
        return ()
    key = graph_inputs(snap, norm)
    got = _GRAPH_MEMO.get(key)
    if got is None:
        got = _GRAPH_MEMO[key] = list(resolved_libraries(snap, norm))
        if len(_GRAPH_MEMO) > _MEMO_SIZE:
            _GRAPH_MEMO.popitem(last=False)
    else:
        _GRAPH_MEMO.move_to_end(key)
    return got


def resolved_libraries(snap: Snapshot, norm: Normaliser) -> Iterable[Tuple[Key, str]]:
    """Which file each native library name resolves to under the snapshot's loader model
    (Linux: the ld.so model over the snapshot's libraries and loader facts). Files outside
    the environment carry their size or digest: the same path on two machines can hold
    different copies."""
    graphs = env_graphs(snap)
    if graphs is None or snap.loader is None:
        return ()
    loader = snap.loader
    found: Dict[str, Set[str]] = {}
    for graph in graphs.graphs:
        for edge in graph.edges:
            res = edge.resolution
            found.setdefault(res.name, set())
            if res.path:
                found[res.name].add(res.path)
    own = {p.replace("\\", "/").rsplit("/", 1)[-1]: d for p, d in loader.digests.items()
           if norm.path(p).startswith("<env>")}
    out = []
    for name, paths in found.items():
        shown = []
        for p in sorted(paths):
            real = loader.realpaths.get(p, p)
            where = norm.path(real)
            if not where.startswith("<env>"):
                stamp = loader.digests.get(real) or loader.digests.get(p)
                size = loader.sizes.get(real, loader.sizes.get(p))
                where += f" [{stamp}]" if stamp else (f" [{size} bytes]" if size is not None else "")
                base = real.replace("\\", "/").rsplit("/", 1)[-1]
                if stamp and own.get(base) == stamp:
                    where += SAME_CONTENT
            shown.append(where)
        out.append((("library", name), " | ".join(sorted(set(shown))) or NOT_FOUND))
    return out


def fingerprint(facts: Profile) -> str:
    """One string per distinct profile: machines with equal fingerprints are alike."""
    h = hashlib.blake2b(digest_size=16)
    for (area, subject), value in sorted(facts.items()):
        h.update(f"{area}\0{subject}\0{value}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def env_path_of(snap: Snapshot) -> Optional[str]:
    return snap.interpreter.prefix or None
