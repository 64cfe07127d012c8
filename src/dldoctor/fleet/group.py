"""``dldoctor fleet``: group machines by identical profiles, diff each group against the
majority, and say it in one count line.

Each distinct Snapshot is profiled once and each group is judged (checks, diff) once, from
its first machine: a thousand alike nodes cost one judgement plus a thousand profile look-ups.
Machines whose snapshot could not be read or collected are rows of the report, not errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from dldoctor.checks import run_checks
from dldoctor.fleet.diff import Difference, DiffReport, diff_snapshots
from dldoctor.fleet.profile import Profile, fingerprint, profile
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot

NAMES_SHOWN = 5  # machine names listed per group in the count line
LABELS_SHOWN = 2  # differences named per group in the count line


@dataclass(frozen=True)
class Machine:
    """One machine's input: its snapshot, or why there is none (unreadable, dead, timed out)."""

    name: str
    snapshot: Optional[Snapshot] = None
    error: str = ""


@dataclass(frozen=True)
class Group:
    machines: Tuple[str, ...]
    findings: Tuple[Finding, ...]
    diff: Optional[DiffReport] = None  # against the baseline; None for the baseline itself


@dataclass(frozen=True)
class FleetReport:
    source: str
    groups: Tuple[Group, ...]  # the baseline (largest group) first
    failed: Tuple[Tuple[str, str], ...]  # (machine, why no snapshot)
    summary: str

    @property
    def machines(self) -> int:
        return sum(len(g.machines) for g in self.groups) + len(self.failed)

    @property
    def worst(self) -> Optional[Severity]:
        levels = [d.weight for g in self.groups if g.diff for d in g.diff.differences]
        levels += [f.level for g in self.groups for f in g.findings]
        return max(levels, default=None)


def natural_key(name: str) -> Tuple[object, ...]:
    """node-2 before node-10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def judge_fleet(machines: Sequence[Machine], source: str = "") -> FleetReport:
    profiles: Dict[int, Tuple[Profile, str]] = {}  # by id(snapshot): alike files share one object
    members: Dict[str, List[Machine]] = {}
    failed: List[Tuple[str, str]] = []
    for m in sorted(machines, key=lambda m: natural_key(m.name)):
        if m.snapshot is None:
            failed.append((m.name, m.error or "no snapshot"))
            continue
        got = profiles.get(id(m.snapshot))
        if got is None:
            facts = profile(m.snapshot)
            got = profiles[id(m.snapshot)] = (facts, fingerprint(facts))
        members.setdefault(got[1], []).append(m)
    ordered = sorted(members.values(), key=lambda ms: (-len(ms), natural_key(ms[0].name)))
    groups: List[Group] = []
    base: Optional[Tuple[Snapshot, Profile, List[Finding]]] = None
    for ms in ordered:
        snap = ms[0].snapshot
        assert snap is not None
        facts = profiles[id(snap)][0]
        found = [f for r in run_checks(snap) for f in r.findings]
        diff = None
        if base is None:
            base = (snap, facts, found)
        else:
            diff = diff_snapshots(base[0], snap, "baseline", ms[0].name, findings=(base[2], found),
                                  profiles=(base[1], facts))
        groups.append(Group(tuple(m.name for m in ms), tuple(found), diff))
    return FleetReport(source, tuple(groups), tuple(failed), count_line(groups, failed))


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    return shown + (f" and {len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else "")


def _plural(n: int, word: str = "node") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def top_labels(diffs: Sequence[Difference]) -> str:
    """The heaviest differences' labels (they are sorted heaviest first)."""
    if not diffs:
        return "findings only"
    labels = [d.label for d in diffs[:LABELS_SHOWN]]
    more = len(diffs) - LABELS_SHOWN
    return ", ".join(labels) + (f" (+{more} more)" if more > 0 else "")


def count_line(groups: Sequence[Group], failed: Sequence[Tuple[str, str]]) -> str:
    """"61 nodes alike; 3 differ: driver 535.104 on node-17, node-22; LD_LIBRARY_PATH on node-40"."""
    if not groups:
        return f"no snapshot could be read; {_plural(len(failed))} failed" if failed else "no machines"
    parts = [f"{_plural(len(groups[0].machines))} alike"]
    odd = groups[1:]
    if odd:
        n = sum(len(g.machines) for g in odd)
        detail = "; ".join(f"{top_labels(g.diff.differences if g.diff else ())} on {_names(g.machines)}" for g in odd)
        parts.append(f"{n} differ: {detail}")
    if failed:
        parts.append(f"{len(failed)} without a snapshot: {_names([n for n, _ in failed])}")
    return "; ".join(parts)
