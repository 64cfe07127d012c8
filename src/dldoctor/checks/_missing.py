"""Which unresolved native names are not (or not fully) a missing library: already loaded by a
declared requirement's import, or needed only by an optional module the package falls back
from (numba's tbbpool) or an on-demand plugin (ONNX Runtime's providers).

Helpers of the missing-shared-library check (checks/native.py)."""

from __future__ import annotations

from typing import Dict, List, Optional, Set

from packaging.utils import canonicalize_name

from dldoctor.checks._native_graph import EnvGraphs, basename
from dldoctor.checks._requirements import parse
from dldoctor.conditions.native import FallbackExtension, native_data
from dldoctor.snapshot.model import Snapshot


def loaded_by_requirements(snap: Snapshot, g: EnvGraphs, dist: str, memo: Dict[str, Set[str]]) -> Set[str]:
    """Library names already in the process when ``dist``'s extension modules load: what the
    extension modules and preloads of its declared (non-extra) requirements, transitively,
    bring in. A torch extension (torchvision, a cpp_extension build) has no RPATH to
    torch/lib; ld.so satisfies its DT_NEEDED libc10.so by the SONAME of the copy ``import
    torch`` loaded first. A name nothing resolves stays missing."""
    key = canonicalize_name(dist)
    if key in memo:
        return memo[key]
    required: Set[str] = set()
    todo = [key]
    while todo:
        d = snap.distribution(todo.pop())
        for line in d.requires if d is not None else ():
            req = parse(line)
            if req is None or (req.marker is not None and "extra" in str(req.marker)):
                continue
            name = canonicalize_name(req.name)
            if name not in required and name != key:
                required.add(name)
                todo.append(name)
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
