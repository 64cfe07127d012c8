"""``dldoctor diff``: what differs between two machines' Snapshots, weighed, heaviest first.

Not a line diff: the two profiles (:mod:`.profile`) are compared fact by fact, each
difference is classified into a kind of ``conditions/differences.toml`` and weighed by it
(loader-steering variables and notable packages by their own rows there), and the findings
of the checks present on one side only are added with their own severity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from dldoctor.checks import run_checks
from dldoctor.conditions.differences import KINDS, weights
from dldoctor.fleet.profile import NOT_FOUND, SAME_CONTENT, Key, Normaliser, Profile, profile
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot

_ORDER = {k: i for i, k in enumerate(KINDS)}


@dataclass(frozen=True)
class Difference:
    """One fact that differs: its value on each side (None: absent there)."""

    kind: str
    weight: Severity
    subject: str  # "torch", "LD_LIBRARY_PATH", "libgomp.so.1", a condition slug, "" for host-wide facts
    a: Optional[str]
    b: Optional[str]
    why: str

    @property
    def label(self) -> str:
        """Short words for the count line: what differs, and its value on side B."""
        kind = weights().kind(self.kind)
        if self.kind in ("framework-version", "framework-presence"):
            return f"{self.subject} {self.b or 'missing'}"
        if self.kind == "framework-build":
            return f"{self.subject} build {self.b}"
        if self.kind == "package":
            return f"{self.subject} {self.b or 'missing'}"
        if self.kind.startswith("library-") or self.kind == "finding":
            return f"{self.subject} ({kind.label})"
        if self.kind == "variable":
            return self.subject
        return f"{kind.label} {self.b or 'none'}"


@dataclass(frozen=True)
class DiffReport:
    a: str  # how each side was named (a file, an interpreter, a node)
    b: str
    differences: Tuple[Difference, ...]
    notes: Tuple[str, ...] = ()

    @property
    def worst(self) -> Optional[Severity]:
        return max((d.weight for d in self.differences), default=None)


def _classify(key: Key, a: Optional[str], b: Optional[str]) -> Optional[Tuple[str, Severity, str]]:
    """(kind, weight, why) of one differing fact; None when it is not compared."""
    table = weights()
    area, subject = key
    if area == "framework":
        kind = table.kind("framework-presence" if a is None or b is None else "framework-version")
    elif area == "framework-build":
        if a is None or b is None:
            return None  # the framework itself is absent on one side: reported once, as presence
        kind = table.kind("framework-build")
    elif area == "library":
        if a is None or b is None:
            return None  # needed on one side only: follows from a package difference, shown there
        if NOT_FOUND in (a, b):
            kind = table.kind("library-missing")
        elif a.startswith("<env>") != b.startswith("<env>") and not (a + b).endswith(SAME_CONTENT):
            kind = table.kind("library-source")
        else:
            kind = table.kind("library-copy")
    elif area == "package":
        kind = table.kind("package")
        row = table.package(subject)
        if row is not None:
            return kind.name, row.weight, row.why
    elif area == "env":
        row = table.variable(subject)
        if row is None:
            return None
        return "variable", row.weight, row.why
    else:
        kind = table.kind(area)
    return kind.name, kind.weight, kind.why


def compare_profiles(a: Profile, b: Profile) -> List[Difference]:
    out: List[Difference] = []
    for key in sorted(set(a) | set(b)):
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        got = _classify(key, va, vb)
        if got is not None:
            out.append(Difference(got[0], got[1], key[1], va, vb, got[2]))
    return out


def finding_differences(a: Sequence[Finding], b: Sequence[Finding], norm_a: Normaliser,
                        norm_b: Normaliser) -> List[Difference]:
    """Conditions found on one side only (by slug), weighed by the finding's own severity."""
    def by_slug(findings: Iterable[Finding], norm: Normaliser) -> Dict[str, Tuple[Severity, str]]:
        out: Dict[str, Tuple[Severity, str]] = {}
        for f in findings:
            slug = f.condition.slug
            if slug not in out or f.level > out[slug][0]:
                out[slug] = (f.level, _paths(f.message, norm))
        return out

    sa, sb = by_slug(a, norm_a), by_slug(b, norm_b)
    why = weights().kind("finding").why
    diffs = []
    for slug in sorted(set(sa) ^ set(sb)):
        level = (sa.get(slug) or sb[slug])[0]
        diffs.append(Difference("finding", level, slug, sa[slug][1] if slug in sa else None,
                                sb[slug][1] if slug in sb else None, why))
    return diffs


def _paths(text: str, norm: Normaliser) -> str:
    for root, mark in norm.roots:
        text = text.replace(root, mark)
    return text


def sort_key(d: Difference) -> Tuple[int, int, str]:
    return (-int(d.weight), _ORDER.get(d.kind, len(_ORDER)), d.subject)


def diff_snapshots(a: Snapshot, b: Snapshot, name_a: str = "A", name_b: str = "B",
                   findings: Optional[Tuple[Sequence[Finding], Sequence[Finding]]] = None,
                   profiles: Optional[Tuple[Profile, Profile]] = None) -> DiffReport:
    """Every weighed difference between ``a`` and ``b``, heaviest first.

    ``findings`` and ``profiles`` may be passed when the caller has them already (fleet
    judges each distinct machine once)."""
    pa, pb = profiles or (profile(a), profile(b))
    diffs = compare_profiles(pa, pb)
    if findings is None:
        findings = (_findings(a), _findings(b))
    diffs += finding_differences(findings[0], findings[1], Normaliser(a), Normaliser(b))
    notes = []
    for name, snap in ((name_a, a), (name_b, b)):
        if snap.loader is None:
            notes.append(f"{name}: no loader facts ({snap.host.os or 'unknown OS'} snapshot): "
                         "which file each native library resolves to was not compared")
    return DiffReport(name_a, name_b, tuple(sorted(diffs, key=sort_key)), tuple(notes))


def _findings(snap: Snapshot) -> List[Finding]:
    return [f for r in run_checks(snap) for f in r.findings]
