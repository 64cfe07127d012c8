"""The check registry: small pure functions ``Snapshot -> Iterable[Finding]``.

A check is registered for one condition slug (Django's system-check habit): it returns
findings, never prints, never touches the machine. Every public module of this package
(``checks/<topic>.py``; helpers start with ``_``) is imported to register its checks, so a
new check module needs no list to be added to; a check registered for a slug that is not a
condition fails at load. ``run_checks`` runs every registered check, so a crash in one check
is reported as a finding, not a dead doctor.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from dldoctor import conditions
from dldoctor.conditions import DataError
from dldoctor.errors import DldoctorError
from dldoctor.model import CheckResult, Condition, Evidence, Finding, Severity
from dldoctor.snapshot.model import Snapshot

CheckFn = Callable[[Snapshot], Iterable[Finding]]


def check_modules() -> Tuple[str, ...]:
    """Every module that holds checks: the package's modules whose names do not start with _."""
    return tuple(sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")))


@dataclass(frozen=True)
class Registered:
    slug: str
    fn: CheckFn
    applies: Callable[[Snapshot], str]  # "" when it applies, else why it was skipped


_REGISTRY: Dict[str, List[Registered]] = {}


def _always(_: Snapshot) -> str:
    return ""


def check(slug: str, applies: Callable[[Snapshot], str] = _always) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check for condition ``slug`` (which must exist in the data).

    ``applies(snapshot)`` returns "" when the check applies, else why it was skipped
    ("not a Windows snapshot"): the report then says "not applicable" instead of "passed"."""

    def deco(fn: CheckFn) -> CheckFn:
        if not conditions.exists(slug):
            raise DataError(
                f"check {fn.__module__}.{fn.__name__} is registered for {slug!r}, which is no condition "
                "in conditions.toml (a typo? `dldoctor rules` lists them; a new condition needs its entry first)"
            )
        _REGISTRY.setdefault(conditions.get(slug).slug, []).append(Registered(slug, fn, applies))
        return fn

    return deco


def registry() -> Dict[str, List[Registered]]:
    """slug -> its registered checks, after importing every check module."""
    for mod in check_modules():
        importlib.import_module(mod)
    return _REGISTRY


def finding(
    slug: str,
    message: str,
    evidence: Iterable[Tuple[str, str]] = (),
    fix: str = "",
    snapshot: Optional[Snapshot] = None,
    severity: Optional[Severity] = None,
    *,
    platform: Optional[str] = None,
    observed: bool = False,
) -> Finding:
    """The one way to build a Finding for ``slug`` (checks, probes and the wheel-set simulator).

    The fix defaults to the condition's fix for the platform (``platform``, else the
    snapshot's OS); ``observed`` marks what a probe saw happen rather than predicted."""
    cond = conditions.get(slug)
    if not fix:
        fix = cond.fix_for(platform or (snapshot.host.os if snapshot else "any"))
    return Finding(
        condition=cond,
        message=message,
        evidence=tuple(Evidence(k, v) for k, v in evidence),
        fix=fix,
        severity=severity,
        observed=observed,
    )


def resolve_selection(names: Sequence[str]) -> Tuple[str, ...]:
    """Codes or slugs (comma lists allowed) -> slugs; unknown names are usage errors."""
    out: List[str] = []
    for item in names:
        for name in filter(None, (p.strip() for p in item.split(","))):
            try:
                out.append(conditions.get(name).slug)
            except KeyError:
                raise DldoctorError(f"unknown condition {name!r} (see `dldoctor rules`)") from None
    return tuple(out)


def run_checks(
    snapshot: Snapshot, select: Sequence[str] = (), ignore: Sequence[str] = ()
) -> Tuple[CheckResult, ...]:
    """Run every registered check (or the selected ones), in condition-code order."""
    sel = set(resolve_selection(select))
    ign = set(resolve_selection(ignore))
    reg = registry()
    results: List[CheckResult] = []
    for cond in conditions.all_conditions():
        if cond.slug not in reg or (sel and cond.slug not in sel) or cond.slug in ign:
            continue
        found: List[Finding] = []
        skipped = ""
        for entry in reg[cond.slug]:
            why = entry.applies(snapshot)
            if why:
                skipped = why
                continue
            try:
                found.extend(entry.fn(snapshot))
            except Exception as exc:
                found.append(_crashed(cond, entry.fn, exc))
        results.append(CheckResult(cond, tuple(found), skipped if not found else ""))
    return tuple(results)


def _crashed(cond: Condition, fn: CheckFn, exc: Exception) -> Finding:
    return Finding(
        condition=cond,
        message=f"check {fn.__name__} failed: {type(exc).__name__}: {exc}",
        fix="Please report this at the dldoctor issue tracker with `dldoctor snapshot` attached.",
        severity=Severity.INFO,
    )
