"""What importing a package does to the loader, from data: folders it adds with
``os.add_dll_directory`` and libraries it loads itself (torch's DLL loop on Windows, its
``libtorch_global_deps`` RTLD_GLOBAL load on Linux), before its extension modules load.

The facts live in ``conditions/preloads.toml`` with their sources (DESIGN §6: read from the
packages' ``__init__.py``, never by importing). This module applies them to one installed
distribution, given its native files; `dldoctor wheels` builds its simulated imports from
the plan, `dldoctor check` loads the preloaded libraries as roots of the environment's load
graphs. Paths are plain strings of the modelled OS (``pathmod``: ntpath or posixpath).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Callable, List, Sequence, Tuple

from packaging.utils import canonicalize_name

from dldoctor.conditions.preloads import preloads
from dldoctor.loader.graph import PathModule
from dldoctor.loader.pysteps import NO_STEPS, SourceSteps


@dataclass(frozen=True)
class ImportPlan:
    """What ``import <dist>`` does to the loader: folders added, then files loaded in order
    (the package's own preloads first, then its extension modules)."""

    dist: str
    dll_directories: Tuple[str, ...]
    loads: Tuple[str, ...]


def _matches(pattern: str, rel: str, case_insensitive: bool) -> bool:
    """One glob per path segment: ``*`` never crosses a folder boundary."""
    pat, parts = pattern.split("/"), rel.split("/")
    if case_insensitive:
        pat, parts = [p.lower() for p in pat], [p.lower() for p in parts]
    return len(pat) == len(parts) and all(fnmatch.fnmatchcase(p, g) for p, g in zip(parts, pat))


def preloaded(dist: str, platform: str, natives: Sequence[str]) -> List[str]:
    """The native files (site-packages-relative, "/"-separated) ``dist`` loads itself at import
    time on ``platform``, in the order it loads them."""
    out: List[str] = []
    for steps in preloads().packages:
        if canonicalize_name(steps.dist) == canonicalize_name(dist) and steps.platform == platform:
            out += sorted((r for r in natives if any(_matches(g, r, platform == "windows") for g in steps.preload)),
                          key=str.lower)
    return out


def import_plan(
    dist: str,
    platform: str,
    site: str,
    natives: Sequence[str],
    pathmod: PathModule,
    folder_exists: Callable[[str], bool],
    prefix: str = "",
    base_prefix: str = "",
    source: SourceSteps = NO_STEPS,
) -> ImportPlan:
    """The plan for ``dist`` whose native files (absolute paths under ``site``) are ``natives``;
    ``source``: the steps read from the package's own Python code (:mod:`dldoctor.loader.pysteps`),
    applied after the table's rows (folders that exist; preloads of its own files)."""
    nocase = platform == "windows"

    def rel(path: str) -> str:
        return path[len(site):].lstrip("/\\").replace("\\", "/")

    ordered = sorted(natives, key=str.lower)
    roots = {"{prefix}": prefix, "{base_prefix}": base_prefix}
    folders: List[str] = []
    for steps in preloads().packages:
        if canonicalize_name(steps.dist) != canonicalize_name(dist) or steps.platform != platform:
            continue
        for entry in steps.dll_directories:
            head, _, rest = entry.partition("/")
            base = roots.get(head, site) if head.startswith("{") else site
            parts = rest.split("/") if head.startswith("{") else entry.split("/")
            folder = pathmod.join(base, *parts) if base else ""
            if folder and folder not in folders and folder_exists(folder):
                folders.append(folder)
    for path in ordered:
        for conv in preloads().conventions:
            folder = pathmod.dirname(path)
            if (conv.platform == platform and folder not in folders
                    and any(_matches(g, rel(path), nocase) for g in conv.dll_directory_of)):
                folders.append(folder)
    for entry in source.dll_directories:
        folder = pathmod.join(site, *entry.split("/"))
        if folder not in folders and folder_exists(folder):
            folders.append(folder)
    own = {r: p for p in ordered for r in (rel(p),)}
    loads = [own[r] for r in preloaded(dist, platform, list(own))]
    for pattern in source.preloads:
        loads += [own[r] for r in sorted(own, key=str.lower)
                  if _matches(pattern, r, nocase) and own[r] not in loads]
    loads += [p for p in ordered if p.lower().endswith(".pyd") and p not in loads]
    return ImportPlan(dist, tuple(folders), tuple(loads))
