"""Core value types shared by every layer.

Everything here is frozen and free of I/O so that checks stay pure functions and
reports can be compared by value in tests (the Django system-check habit).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional, Tuple

from dldoctor.resolution import Resolution as Resolution  # re-exported: a core type


class Severity(enum.IntEnum):
    """How bad a finding is; any ERROR makes ``dldoctor check`` exit 1."""

    INFO = 20
    WARNING = 30
    ERROR = 40

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Reference:
    """A public source for a condition: where the folklore was written down."""

    title: str
    url: str


@dataclass(frozen=True)
class Fix:
    """One way out, for the platforms it applies to ("any" = all)."""

    text: str
    platforms: Tuple[str, ...] = ("any",)


@dataclass(frozen=True)
class Condition:
    """A known problem: stable code and slug, and the text of its docs page."""

    code: str
    slug: str
    title: str
    severity: Severity
    platforms: Tuple[str, ...]
    summary: str
    why: str
    example: str
    fixes: Tuple[Fix, ...]
    references: Tuple[Reference, ...]
    confirm: str = ""
    seeds: Tuple[str, ...] = ()

    def fix_for(self, platform: str) -> str:
        """The first fix that applies to ``platform`` (linux, windows, macos)."""
        for fix in self.fixes:
            if platform in fix.platforms or "any" in fix.platforms:
                return fix.text
        return self.fixes[0].text if self.fixes else ""


@dataclass(frozen=True)
class Evidence:
    """One fact behind a finding, e.g. ``("PATH[2]", "C:\\\\...\\\\torch\\\\lib")``."""

    label: str
    value: str


@dataclass(frozen=True)
class Finding:
    """One condition seen on one machine."""

    condition: Condition
    message: str
    evidence: Tuple[Evidence, ...] = ()
    fix: str = ""
    severity: Optional[Severity] = None  # None: the condition's own severity
    observed: bool = False  # True when a probe saw it happen, False when predicted

    @property
    def level(self) -> Severity:
        return self.severity if self.severity is not None else self.condition.severity


@dataclass(frozen=True)
class Diagnosis:
    """One candidate cause of a pasted error, with how sure we are and why."""

    condition: Condition
    confidence: float
    matched: Tuple[str, ...]
    evidence: Tuple[Evidence, ...] = ()
    fix: str = ""


@dataclass(frozen=True)
class CheckResult:
    """What one registered check said: its condition and its findings (empty = passed)."""

    condition: Condition
    findings: Tuple[Finding, ...]
    skipped: str = ""  # why the check did not apply (e.g. "no framework installed")


@dataclass(frozen=True)
class Report:
    """Everything a renderer needs; renderers never touch the machine."""

    target: str
    platform: str
    results: Tuple[CheckResult, ...] = ()
    facts: Tuple[Evidence, ...] = ()
    errors: Tuple[str, ...] = field(default=())  # collection problems, shown, never fatal

    @property
    def findings(self) -> Tuple[Finding, ...]:
        return tuple(f for r in self.results for f in r.findings)

    @property
    def worst(self) -> Optional[Severity]:
        levels = [f.level for f in self.findings]
        return max(levels) if levels else None
