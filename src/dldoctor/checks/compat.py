"""Version compatibility: requirements that do not fit (what `pip check` sees), torch's
satellites built for another torch, and extensions built against another NumPy major.

Each unmet requirement is reported once, by the most specific condition: a satellite's pin on
torch is companion-mismatch, a ``numpy<2`` bound under NumPy 2 is numpy-abi-mismatch, the
rest is requirement-conflict (an error where the data says the import then fails).
"""

from __future__ import annotations

from typing import Iterator, Optional

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.checks import check, finding
from dldoctor.checks._requirements import Unmet, import_name, unmet_requirements
from dldoctor.conditions.compat import critical_for, release_for, satellites
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot


def _major(version: str) -> Optional[int]:
    try:
        return Version(version).major
    except InvalidVersion:
        return None


def _is_companion(u: Unmet) -> bool:
    row = satellites().get(canonicalize_name(u.dist.name))
    return row is not None and canonicalize_name(row["framework"]) == u.name


def _is_numpy_abi(u: Unmet) -> bool:
    """``numpy<2`` (an upper bound below the installed major) with NumPy 2 installed: the
    package was built against NumPy 1.x, so the import fails on the C ABI, not on an API."""
    if u.name != "numpy" or u.installed is None:
        return False
    major = _major(u.installed.version)
    return major is not None and major >= 2 and not u.requirement.specifier.contains(f"{major}.0.0", prereleases=True)


@check("requirement-conflict")
def requirement_conflict(snap: Snapshot) -> Iterator[Finding]:
    """Requires-Dist of every imported distribution, judged as the target's pip judges them."""
    for u in unmet_requirements(snap):
        if _is_companion(u) or _is_numpy_abi(u):
            continue
        row = critical_for(u.requirement.name, u.dist.name)
        module = import_name(u.dist)
        if row is not None:
            message = f"import {module} fails: {u.describe()}"
            evidence = [("requirement", f"{u.dist.name} {u.dist.version}: {u.requirement}"),
                        ("installed", f"{u.installed.name} {u.installed.version}" if u.installed else "not installed"),
                        ("symptom", row["symptom"]), ("source", row["source"])]
        else:
            message = u.describe() + " (pip check reports it; the import may still work)"
            evidence = [("requirement", f"{u.dist.name} {u.dist.version}: {u.requirement}"),
                        ("installed", f"{u.installed.name} {u.installed.version}" if u.installed else "not installed")]
        yield finding(
            "requirement-conflict",
            message,
            evidence,
            fix=f'python -m pip install "{u.spec}"   (versions that fit: {u.requirement.specifier or "any"}); '
            "then `python -m pip check` must be quiet",
            snapshot=snap,
            severity=Severity.ERROR if row is not None else Severity.WARNING,
        )


@check("companion-mismatch")
def companion_mismatch(snap: Snapshot) -> Iterator[Finding]:
    """A satellite whose Requires-Dist pins another release of its framework."""
    for u in unmet_requirements(snap):
        if not _is_companion(u):
            continue
        sat = satellites()[canonicalize_name(u.dist.name)]
        have = u.installed.version if u.installed else None
        row = release_for(u.name, have) if have else None
        fitting = row.get(canonicalize_name(u.dist.name)) if row else None
        message = (f"import {import_name(u.dist)} fails: {u.dist.name} {u.dist.version} is built for "
                   f"{u.spec}, but {u.requirement.name} {have or 'is not installed'}"
                   + (" is installed" if have else ""))
        evidence = [("requires", f"{u.dist.name} {u.dist.version}: {u.requirement}"),
                    ("installed", f"{u.requirement.name} {have}" if have else "not installed"),
                    ("symptom", sat["symptom"])]
        if row and fitting:
            evidence.append(("fits", f"{u.dist.name} {fitting} (released with {u.requirement.name} {row[u.name]})"))
            fix = f"python -m pip install {u.dist.name}=={fitting}  (the release built for {u.requirement.name} {have})"
        else:
            fix = (f"Install the {u.dist.name} release built for {u.requirement.name} {have or ''} "
                   f"(its Requires-Dist pins it), from the same wheel index as {u.requirement.name}.")
        yield finding("companion-mismatch", message, evidence, fix=fix, snapshot=snap)


@check("numpy-abi-mismatch")
def numpy_abi_mismatch(snap: Snapshot) -> Iterator[Finding]:
    """Packages that declare a NumPy below the installed major (``numpy<2`` under NumPy 2)."""
    for u in unmet_requirements(snap):
        if not _is_numpy_abi(u):
            continue
        assert u.installed is not None
        yield finding(
            "numpy-abi-mismatch",
            f"import {import_name(u.dist)} fails: {u.dist.name} {u.dist.version} is built for "
            f"NumPy 1.x ({u.spec}), but numpy {u.installed.version} is installed",
            [("requires", f"{u.dist.name} {u.dist.version}: {u.requirement}"),
             ("installed", f"numpy {u.installed.version}")],
            fix=f"Upgrade {u.dist.name} to a release built for NumPy 2 (`python -m pip install -U {u.dist.name}`), "
            f'or keep NumPy 1: `python -m pip install "numpy<2"`.',
            snapshot=snap,
        )
