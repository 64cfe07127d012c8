"""The check registry: small pure functions ``Snapshot -> Iterable[Finding]``.

A check is registered for one condition slug (Django's system-check habit): it returns
findings, never prints, never touches the machine. ``run_checks`` runs every registered
check, so a crash in one check is reported as a collection error, not a dead doctor.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

from dldoctor import conditions
from dldoctor.errors import DldoctorError
from dldoctor.model import CheckResult, Condition, Evidence, Finding, Severity
from dldoctor.snapshot.model import Snapshot

CheckFn = Callable[[Snapshot], Iterable[Finding]]

# Modules holding checks; importing them registers their functions.
CHECK_MODULES = (
    "dldoctor.checks.environment",
    "dldoctor.checks.installs",
    "dldoctor.checks.paths",
    "dldoctor.checks.frameworks",
    "dldoctor.checks.native",
    "dldoctor.checks.windows",
)


@dataclass(frozen=True)
class Registered:
    slug: str
    fn: CheckFn
    applies: Callable[[Snapshot], str]  # "" when it applies, else why it was skipped


_REGISTRY: Dict[str, List[Registered]] = {}


def _always(_: Snapshot) -> str:
    return ""


def check(slug: str, applies: Callable[[Snapshot], str] = _always) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check for condition ``slug`` (which must exist in the data)."""
    conditions.get(slug)  # KeyError at import time for a typo

    def deco(fn: CheckFn) -> CheckFn:
        _REGISTRY.setdefault(slug, []).append(Registered(slug, fn, applies))
        return fn

    return deco


def registry() -> Dict[str, List[Registered]]:
    for mod in CHECK_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise
    return _REGISTRY


def finding(
    slug: str,
    message: str,
    evidence: Iterable[Tuple[str, str]] = (),
    fix: str = "",
    snapshot: Snapshot | None = None,
    severity: Severity | None = None,
) -> Finding:
    """Build a Finding for ``slug``; the fix defaults to the condition's fix for the platform."""
    cond = conditions.get(slug)
    if not fix:
        fix = cond.fix_for(snapshot.host.os if snapshot else "any")
    return Finding(
        condition=cond,
        message=message,
        evidence=tuple(Evidence(k, v) for k, v in evidence),
        fix=fix,
        severity=severity,
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
