"""path-pollution: folders on the loader's search variable that belong to Python packages
or to other environments (seed 001: a venv's torch\\lib on the user's Path)."""

from __future__ import annotations

from typing import Dict, Iterator, List, Tuple

from dldoctor.checks import check, finding
from dldoctor.checks._util import is_within, norm
from dldoctor.checks.native import ld_library_path_wins
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot


def _owner(snap: Snapshot, folder: str) -> str:
    """The distribution of this environment whose files live in ``folder``, or ""."""
    for d in snap.distributions:
        for rel in d.native_libs:
            lib_dir = rel.replace("\\", "/").rsplit("/", 1)[0] if "/" in rel.replace("\\", "/") else ""
            if lib_dir and norm(snap, folder) == norm(snap, f"{d.location}/{lib_dir}"):
                return d.name
    return ""


def _really_shadows(snap: Snapshot) -> Dict[str, List[Tuple[str, str]]]:
    """Folder -> ("really shadows", "NAME of DIST (copy)") per the loader model: the copies
    a folder wins over, not just the names it shares."""
    out: Dict[str, List[Tuple[str, str]]] = {}
    dists = {x.path: x.dist for x in snap.libraries}
    for winner, copy, name, _ in ld_library_path_wins(snap):
        folder = winner.rsplit("/", 1)[0]
        out.setdefault(norm(snap, folder), []).append(
            ("really shadows", f"{name} of {dists.get(copy) or 'a package'} ({copy})"))
    return out


@check("path-pollution")
def path_pollution(snap: Snapshot) -> Iterator[Finding]:
    prefix = snap.interpreter.prefix
    shadows = _really_shadows(snap)
    for e in snap.search_path:
        if not e.exists:
            continue
        label = f"{e.var}[{e.index}]"
        if e.env_root and not is_within(snap, e.env_root, prefix) and not is_within(snap, prefix, e.env_root):
            sev = Severity.ERROR if e.same_names else Severity.WARNING
            shadow = f"; it holds {len(e.same_names)} libraries of the same name as this environment's" \
                if e.same_names else ""
            yield finding(
                "path-pollution",
                f"{e.var} holds a folder of another Python environment{shadow}",
                [(label, e.path), ("its environment", e.env_root),
                 *(("same name", n) for n in e.same_names[:5]), *shadows.get(norm(snap, e.path), [])[:5]],
                snapshot=snap,
                severity=sev,
            )
            continue
        owner = _owner(snap, e.path)
        if owner:
            yield finding(
                "path-pollution",
                f"{e.var} holds {owner}'s own library folder; it changes how its libraries load",
                [(label, e.path), ("package", owner), *shadows.get(norm(snap, e.path), [])[:5]],
                snapshot=snap,
            )
