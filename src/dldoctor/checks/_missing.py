"""Which unresolved native names are not (or not fully) a missing library: already loaded by a
declared requirement's import, or needed only by an optional module the package falls back
from (numba's tbbpool) or an on-demand plugin (ONNX Runtime's providers, Qt's plugins); and
what to tell the user for each: a CUDA library comes from the nvidia-* wheels, any other from
the system's packages.

Helpers of the missing-shared-library check (checks/native.py)."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set

from packaging.utils import canonicalize_name

from dldoctor.checks import finding
from dldoctor.checks._native_graph import EnvGraphs, basename, dist_of
from dldoctor.checks._requirements import required_closure
from dldoctor.conditions.native import FallbackExtension, native_data
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot

SHOWN = 5  # evidence lines of one kind before "... and N more"


def loaded_by_requirements(snap: Snapshot, g: EnvGraphs, dist: str, memo: Dict[str, Set[str]]) -> Set[str]:
    """Library names already in the process when ``dist``'s extension modules load: what the
    extension modules and preloads of its declared (non-extra) requirements, transitively,
    bring in. A torch extension (torchvision, a cpp_extension build) has no RPATH to
    torch/lib; ld.so satisfies its DT_NEEDED libc10.so by the SONAME of the copy ``import
    torch`` loaded first. A name nothing resolves stays missing."""
    key = canonicalize_name(dist)
    if key in memo:
        return memo[key]
    required = required_closure(snap, dist)
    names: Set[str] = set()
    for graph in g.graphs:
        root = g.library(graph.root)
        if root is None or not root.dist or canonicalize_name(root.dist) not in required:
            continue
        for edge in graph.edges:
            if edge.resolution.path:
                names.update((edge.resolution.name, basename(edge.resolution.path)))
    memo[key] = names
    return names


def fallback_extension(dist: str, requester: str, roots: List[str]) -> Optional[FallbackExtension]:
    """The fallback_extension row when every root of this failing request is an extension
    module its package imports in try/except (numba's tbbpool), else None."""
    names = [*dict.fromkeys(roots)] or [requester]
    for row in native_data().fallback_extensions:
        if canonicalize_name(row.dist) == canonicalize_name(dist) and all(
                row.pattern.search(basename(r)) for r in names):
            return row
    return None


def optional_plugin(requester: str, roots: List[str]) -> str:
    """The on-demand plugin every root of this failing request is, or "" (a hard dependency
    of something the import loads is an error as before)."""
    names = [*dict.fromkeys(roots)]
    if names and all(any(p.search(basename(r)) for p in native_data().optional_plugins) for r in names):
        return names[0]
    return ""


def shipped_names(snap: Snapshot) -> Set[str]:
    """Base names of every native file an installed package's RECORD lists (there, or gone)."""
    return {basename(rel) for d in snap.distributions for rel in d.native_libs}


def system_library_fix(name: str, shipped: Set[str]) -> str:
    """The fix for a missing ``name``: the driver for its own libraries (libcuda, NVML); ""
    (the condition's own: the nvidia-* wheels, or reinstalling the framework) for a library of
    NVIDIA's CUDA stack or one an installed package ships (``shipped``: libtensorflow_cc.so.2);
    else where a system library comes from."""
    data = native_data()
    if any(p.search(name) for p in data.nvidia_driver_libraries):
        return (f"{name} comes with the NVIDIA display driver: install or repair the driver (`nvidia-smi` "
                "should answer), or use a CPU build where there is no NVIDIA GPU.")
    if any(p.search(name) for p in data.nvidia_libraries) or name in shipped:
        return ""  # an installed package's RECORD lists it (there, or gone): reinstalling it is the fix
    return (f"{name} is no CUDA library and no installed package ships it: install the system package that "
            f"provides it (Debian/Ubuntu: `apt-file search {name}`; Fedora/RHEL: `dnf provides '*/{name}'`), "
            "or the wheel that ships it.")


def _count(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _essential(path: str) -> bool:
    folders = path.replace("\\", "/").split("/")[:-1]
    return any(f in native_data().essential_plugin_folders for f in folders)


def on_demand_plugins(snap: Snapshot, on_demand: Dict[str, Dict[str, Set[str]]]) -> Iterator[Finding]:
    """For each package, its plugins (lib*.so files without a SONAME that nothing links, opened
    by path when a feature asks for them) that cannot load: one warning for those it cannot work
    without (Qt's platform plugins: every window), one info for the others. ``on_demand`` is
    dist -> plugin -> names."""
    for dist, missing in sorted(on_demand.items()):
        for essential in (True, False):
            group = {p: ns for p, ns in missing.items() if _essential(p) == essential}
            if not group:
                continue
            names = sorted({n for ns in group.values() for n in ns})
            shown = sorted(group)
            listed = f"{', '.join(basename(x) for x in shown[:3])}{', ...' if len(shown) > 3 else ''}"
            needs = f"{', '.join(names[:4])}{', ...' if len(names) > 4 else ''}"
            effect = ("the import works, but the feature they serve (a Qt application's windows) fails at start"
                      if essential else "A plugin is loaded by its path when a feature asks for it, and skipped "
                      "when it cannot load: the import works, those features do not")
            yield finding(
                "missing-shared-library",
                f"{_count(len(shown), 'plugin')} of {dist} cannot load here ({listed}): "
                f"{_count(len(names), 'library', 'libraries')} they need "
                f"{'is' if len(names) == 1 else 'are'} not found "
                f"({needs}). {effect[0].upper()}{effect[1:]}",
                [*(("plugin", x) for x in shown[:SHOWN]), *(("needed name", n) for n in names[:SHOWN * 3])],
                fix=("Install the system packages that provide them (Debian/Ubuntu: `apt-file search NAME`), "
                     "or run the application where they are installed." if essential else
                     "Nothing to do unless you need those features: then install the libraries they name "
                     "(system packages, e.g. `apt-file search NAME` on Debian/Ubuntu, or the wheel that ships "
                     "the module)."),
                snapshot=snap,
                severity=Severity.WARNING if essential else Severity.INFO,
            )


def provider_plugins(snap: Snapshot, g: EnvGraphs, plugins: Dict[str, List[str]]) -> Iterator[Finding]:
    """One warning per framework plugin loaded on demand (optional_plugins: ONNX Runtime's
    providers) that cannot load: ``plugins`` is plugin -> the names it misses."""
    for plugin, names in sorted(plugins.items()):
        names = sorted(set(names))
        yield finding(
            "missing-shared-library",
            f"{basename(plugin)} ({dist_of(g, plugin)}) cannot load: {len(names)} libraries it needs are not found "
            f"({', '.join(names[:4])}{', ...' if len(names) > 4 else ''}); the import works, but that provider "
            "is skipped and sessions fall back to CPU",
            [("plugin", plugin), *(("needed name", n) for n in names[:SHOWN * 3])],
            fix="Install the libraries the provider needs (for onnxruntime-gpu: CUDA 12.x and cuDNN 9.x, e.g. the "
            "nvidia-* wheels), or use the CPU package where there is no GPU; `dldoctor probe onnxruntime` shows "
            "which providers a session really loads.",
            snapshot=snap,
            severity=Severity.WARNING,
        )
