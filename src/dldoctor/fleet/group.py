"""``dldoctor fleet``: group machines by identical profiles, diff each group against the
majority, and say it in one count line.

Each distinct Snapshot is profiled once and each group is judged (checks, diff) once, from
its first machine: a thousand alike nodes cost one judgement plus a thousand profile look-ups.
Machines whose snapshot could not be read or collected are rows of the report, not errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from dldoctor.checks import run_checks
from dldoctor.fleet.diff import Difference, DiffReport, diff_snapshots
from dldoctor.fleet.profile import Profile, fingerprint, profile
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot

NAMES_SHOWN = 5  # machine names listed per group in the count line
LABELS_SHOWN = 2  # differences named per group in the count line


@dataclass(frozen=True)
class Machine:
    """One machine's input: its snapshot, or why there is none (unreadable, dead, timed out).
    ``key`` names the snapshot's content where the reader knows it (equal keys: equal
    snapshots), so that alike machines are profiled once."""

    name: str
    snapshot: Optional[Snapshot] = None
    error: str = ""
    key: str = ""


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
    homes: Tuple[str, ...] = ()  # every machine's home folder, for the output's redaction

    @property
    def machines(self) -> int:
        return sum(len(g.machines) for g in self.groups) + len(self.failed)

    @property
    def worst(self) -> Optional[Severity]:
        levels = [d.weight for g in self.groups if g.diff for d in g.diff.differences]
        levels += [f.level for g in self.groups for f in g.findings]
        return max(levels, default=None)


def from_folder(folder: str) -> Iterator[Machine]:
    """The machines of a folder of snapshot files (``fleet --from``), read one at a time."""
    from dldoctor.snapshot.folder import load_folder

    for name, got, key in load_folder(folder):
        yield Machine(name, None, got, key) if isinstance(got, str) else Machine(name, got, "", key)


def natural_key(name: str) -> Tuple[object, ...]:
    """node-2 before node-10."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def judge_fleet(machines: Iterable[Machine], source: str = "") -> FleetReport:
    """Group and judge; ``machines`` may be a generator: only the first snapshot of each
    group is kept, so memory grows with the number of groups, not of machines."""
    by_key: Dict[str, str] = {}  # content key -> fingerprint
    first: Dict[str, Tuple[Machine, Profile]] = {}  # fingerprint -> its first machine and profile
    members: Dict[str, List[str]] = {}
    failed: List[Tuple[str, str]] = []
    homes: Set[str] = set()
    for m in machines:
        snap = m.snapshot
        if snap is None:
            failed.append((m.name, m.error or "no snapshot"))
            continue
        homes.add(snap.host.home)
        fp = by_key.get(m.key) if m.key else None
        if fp is None:
            facts = profile(snap)
            fp = fingerprint(facts)
            if m.key:
                by_key[m.key] = fp
            if fp not in first:
                first[fp] = (m, facts)
        members.setdefault(fp, []).append(m.name)
    for names in members.values():
        names.sort(key=natural_key)
    failed.sort(key=lambda f: natural_key(f[0]))
    ordered = sorted(members, key=lambda fp: (-len(members[fp]), natural_key(members[fp][0])))
    groups: List[Group] = []
    base: Optional[Tuple[Snapshot, Profile, List[Finding]]] = None
    for fp in ordered:
        rep, facts = first[fp]
        snap = rep.snapshot
        assert snap is not None
        found = [f for r in run_checks(snap) for f in r.findings]
        diff = None
        if base is None:
            base = (snap, facts, found)
        else:
            diff = diff_snapshots(base[0], snap, "baseline", rep.name, findings=(base[2], found),
                                  profiles=(base[1], facts))
        groups.append(Group(tuple(members[fp]), tuple(found), diff))
    return FleetReport(source, tuple(groups), tuple(failed), count_line(groups, failed), tuple(sorted(homes)))


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
