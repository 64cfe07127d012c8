"""Version compatibility: requirements that do not fit (what `pip check` sees), torch's
satellites built for another torch, and extensions built against another NumPy major.

Each unmet requirement is reported once, by the most specific condition: a satellite's pin on
torch is companion-mismatch, a ``numpy<2`` bound under NumPy 2 is numpy-abi-mismatch, the
rest is requirement-conflict (an error where compat.toml says the import then fails).
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from dldoctor.checks import check, finding
from dldoctor.checks._companions import fitting, index_for, problems, public_version
from dldoctor.checks._layers import delegated
from dldoctor.checks._requirements import Unmet, fits, import_name, unmet_requirements
from dldoctor.checks._util import parsed_version, pip_of
from dldoctor.conditions.compat import critical_for, numpy2_releases, satellites
from dldoctor.conditions.native import native_data
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Distribution, Snapshot


def _major(version: str) -> Optional[int]:
    parsed = parsed_version(version)
    return None if parsed is None else parsed.major


def _is_companion(u: Unmet) -> bool:
    """A satellite's pin on an installed framework (a missing framework is a plain requirement)."""
    row = satellites().get(canonicalize_name(u.dist.name))
    return row is not None and canonicalize_name(row["framework"]) == u.name and u.installed is not None


def _is_numpy_abi(u: Unmet) -> bool:
    """``numpy<2`` (an upper bound below the installed major) with NumPy 2 installed: the
    package was built against NumPy 1.x, so the import fails on the C ABI, not on an API."""
    if u.name != "numpy" or u.installed is None:
        return False
    major = _major(u.installed.version)
    return major is not None and major >= 2 and not u.requirement.specifier.contains(f"{major}.0.0", prereleases=True)


def _shadowed(snap: Snapshot, u: Unmet) -> bool:
    """The copy imported comes from PYTHONPATH or the user site while a copy the environment
    holds would fit: pythonpath-pollution / user-site-shadowing name that cause and its fix."""
    if u.installed is None or not delegated(snap, u.installed.location):
        return False
    return any(canonicalize_name(d.name) == u.name and d is not u.installed and fits(d.version, u.requirement)
               for d in snap.distributions)


def _installed(u: Unmet) -> str:
    return f"{u.installed.name} {u.installed.version}" if u.installed else "not installed"


@check("requirement-conflict")
def requirement_conflict(snap: Snapshot) -> Iterator[Finding]:
    """Requires-Dist of every imported distribution, judged as the target's pip judges them;
    one finding per required distribution, with every package that requires it."""
    groups: Dict[str, List[Unmet]] = {}
    for u in unmet_requirements(snap):
        if not (_is_companion(u) or _is_numpy_abi(u) or _shadowed(snap, u)):
            groups.setdefault(u.name, []).append(u)
    for unmet in groups.values():
        rows = [(u, critical_for(u.requirement.name, u.dist.name)) for u in unmet]
        crit = [(u, r) for u, r in rows if r is not None]
        first = unmet[0]
        spec = SpecifierSet()
        for u in unmet:
            spec &= u.requirement.specifier
        what = "; ".join(u.describe() for u in unmet)
        evidence: List[Tuple[str, str]] = [("requirement", f"{u.dist.name} {u.dist.version}: {u.requirement}")
                                           for u in unmet]
        evidence.append(("installed", _installed(first)))
        if crit:
            row = crit[0][1]
            assert row is not None
            users = list(dict.fromkeys(import_name(u.dist) for u, _ in crit))
            if row["when"] == "import":
                lead = " and ".join(f"import {m}" for m in users) + (" fails" if len(users) == 1 else " fail")
            else:
                lead = f"{', '.join(users)} needs {first.requirement.name} ({row['symptom'].split(':')[0]})"
            message = f"{lead}: {what}"
            evidence += [("symptom", row["symptom"]), ("source", row["source"])]
        else:
            message = f"{what} (pip check reports it; the import may still work)"
        target = f"{first.requirement.name}{spec}"
        yield finding(
            "requirement-conflict",
            message,
            evidence,
            fix=f'{pip_of(snap)} install "{target}"   (versions that fit: {spec or "any"}); '
            f"then `{pip_of(snap)} check` must be quiet",
            snapshot=snap,
            severity=Severity.ERROR if crit else Severity.WARNING,
        )


@check("companion-mismatch")
def companion_mismatch(snap: Snapshot) -> Iterator[Finding]:
    """A satellite pinned to another torch release, or built for another variant (CUDA on a
    CPU torch, another CUDA major): the cause of its "missing" torch and CUDA libraries."""
    for p in problems(snap):
        fw = p.framework
        sat = satellites()[canonicalize_name(p.dist.name)]
        reasons = []
        if p.pin is not None:
            reasons.append(f"it requires {p.pin.name}{p.pin.specifier}")
        elif p.stale:
            reasons.append(f"it was released with {fw.name} {p.table_torch}")
        if p.variant_text:
            reasons.append(p.variant_text)
        message = (f"import {import_name(p.dist)} fails: {p.dist.name} {p.dist.version} does not fit "
                   f"{fw.name} {fw.version}: " + "; ".join(reasons))
        evidence: List[Tuple[str, str]] = []
        if p.pin is not None:
            evidence.append(("requires", f"{p.dist.name} {p.dist.version}: {p.pin}"))
        evidence.append(("installed", f"{fw.name} {fw.version}"))
        if p.build is not None and p.build.needed:
            evidence.append(("built for", f"{p.build.describe()}: needs " + ", ".join(p.build.needed)))
        evidence.append(("symptom", sat["symptom"]))
        fits = fitting(snap, p)
        index = index_for(fw.version)
        label = f"+{Version(fw.version).local}" if index and _major(fw.version) is not None else ""
        where = f" --index-url {index}" if index else ""
        if fits:
            evidence.append(("fits", f"{p.dist.name} {fits} (published with {fw.name} {public_version(fw.version)})"))
            fix = f'{pip_of(snap)} install "{p.dist.name}=={fits}{label}" "{fw.name}=={fw.version}"{where}'
        else:
            fix = (f'{pip_of(snap)} install --upgrade "{p.dist.name}" "{fw.name}=={fw.version}"{where}   '
                   f"(pip picks the newest {p.dist.name} built for {fw.name} {fw.version}; if none exists, "
                   f"`{pip_of(snap)} uninstall {p.dist.name}` or install the {fw.name} it requires)")
        if index:
            evidence.append(("wheel index", f"{fw.name} {fw.version} comes from {index}: its satellites must too"))
        yield finding("companion-mismatch", message, evidence, fix=fix, snapshot=snap, severity=p.severity)


def _numpy_fix(snap: Snapshot, dist: Distribution) -> str:
    known = numpy2_releases().get(canonicalize_name(dist.name))
    pip = pip_of(snap)
    upgrade = f'{pip} install "{dist.name}>={known[0]}"' if known else f"{pip} install -U {dist.name}"
    return f'{upgrade}   (a release built for NumPy 2), or keep NumPy 1: {pip} install "numpy<2"'


@check("numpy-abi-mismatch")
def numpy_abi_mismatch(snap: Snapshot) -> Iterator[Finding]:
    """Extensions compiled against NumPy 1.x (their import_array() names only numpy.core)
    under NumPy 2, and packages that declare ``numpy<2`` under NumPy 2."""
    numpy = snap.distribution("numpy")
    major = _major(numpy.version) if numpy else None
    if numpy is None or major is None or major < 2:
        return
    built: Dict[str, List[str]] = {}
    for lib in snap.libraries:
        if lib.numpy_build == "1" and lib.dist and canonicalize_name(lib.dist) != "numpy":
            built.setdefault(str(canonicalize_name(lib.dist)), []).append(lib.path)
    bounded: Dict[str, Unmet] = {str(canonicalize_name(u.dist.name)): u
                                 for u in unmet_requirements(snap) if _is_numpy_abi(u)}
    for key in sorted(set(built) | set(bounded), key=lambda k: (k not in built, k)):
        dist = snap.distribution(key)
        if dist is None:
            continue
        files = built.get(key, [])
        u = bounded.get(key)
        evidence: List[Tuple[str, str]] = [("installed", f"numpy {numpy.version}")]
        if files:
            evidence.append(("built against NumPy 1.x", f"{len(files)} extension module(s): their import_array() "
                                                        "names numpy.core, not numpy._core"))
            evidence += [("module", f) for f in files[:5]]
        if u is not None:
            evidence.append(("requires", f"{dist.name} {dist.version}: {u.requirement}"))
        known = numpy2_releases().get(key)
        if known:
            evidence.append(("first NumPy 2 build", f"{dist.name} {known[0]} ({known[1]})"))
        # An extension module fails at import; a binding library (libtorch_python.so) only
        # when NumPy is used through it (torch warns at import, torch.from_numpy fails).
        extension = not files or any(p.search(f.replace("\\", "/").rsplit("/", 1)[-1])
                                     for f in files for p in native_data().extension)
        what = f"import {import_name(dist)} fails" if extension else f"{dist.name}'s NumPy functions fail"
        yield finding(
            "numpy-abi-mismatch",
            f"{what}: {dist.name} {dist.version} was built for NumPy 1.x "
            f"(needs numpy<2), but numpy {numpy.version} is installed",
            evidence,
            fix=_numpy_fix(snap, dist),
            snapshot=snap,
        )
