"""``diff`` and ``fleet`` reports as text, JSON (diff.schema.json, fleet.schema.json) and
Markdown (to paste into an issue)."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Sequence

from dldoctor._version import __version__
from dldoctor.fleet.diff import Difference, DiffReport
from dldoctor.fleet.group import FleetReport, Group
from dldoctor.model import Finding, Severity
from dldoctor.render.json import finding_dict

DIFF_SCHEMA_VERSION = 1
FLEET_SCHEMA_VERSION = 1
MARKS = {Severity.ERROR: "✗", Severity.WARNING: "⚠", Severity.INFO: "ℹ"}
MAX_VALUE = 300  # characters of a value shown in text and Markdown (JSON has it whole)
NAMES_LISTED = 20


def _value(v: Optional[str]) -> str:
    if v is None:
        return "(absent)"
    return v if len(v) <= MAX_VALUE else v[:MAX_VALUE] + f"… ({len(v)} characters)"


def _counts(diffs: Sequence[Difference]) -> Dict[str, int]:
    return {s.label: sum(1 for d in diffs if d.weight == s) for s in Severity}


def difference_dict(d: Difference) -> Dict[str, Any]:
    return {"kind": d.kind, "weight": d.weight.label, "subject": d.subject, "label": d.label,
            "a": d.a, "b": d.b, "why": d.why}


def diff_dict(report: DiffReport) -> Dict[str, Any]:
    return {
        "schema_version": DIFF_SCHEMA_VERSION,
        "dldoctor_version": __version__,
        "a": report.a,
        "b": report.b,
        "differences": [difference_dict(d) for d in report.differences],
        "summary": _counts(report.differences),
        "notes": list(report.notes),
    }


def _summary_line(diffs: Sequence[Difference]) -> str:
    if not diffs:
        return "no differences that matter"
    c = _counts(diffs)
    return f"{len(diffs)} difference{'s' if len(diffs) != 1 else ''}: " + ", ".join(
        f"{c[s.label]} {s.label}" for s in sorted(Severity, reverse=True) if c[s.label])


def _diff_lines(diffs: Sequence[Difference], indent: str = "") -> List[str]:
    lines = []
    for d in diffs:
        what = f"{d.kind}: {d.subject}" if d.subject else d.kind
        lines.append(f"{indent}{MARKS[d.weight]} {d.weight.label:<7} {what}")
        lines.append(f"{indent}    A: {_value(d.a)}")
        lines.append(f"{indent}    B: {_value(d.b)}")
        if d.weight > Severity.INFO:
            lines.append(f"{indent}    why: {d.why}")
    return lines


def render_diff_text(report: DiffReport) -> str:
    lines = [f"dldoctor diff  A: {report.a}  B: {report.b}", ""]
    lines += _diff_lines(report.differences)
    lines += [f"note: {n}" for n in report.notes]
    lines += ["", _summary_line(report.differences)]
    return "\n".join(lines) + "\n"


def _cell(v: Optional[str]) -> str:
    return "`" + _value(v).replace("|", "\\|").replace("`", "'") + "`" if v is not None else "*absent*"


def _diff_table(diffs: Sequence[Difference]) -> List[str]:
    if not diffs:
        return ["No differences that matter."]
    rows = ["| weight | kind | subject | A | B |", "|---|---|---|---|---|"]
    for d in diffs:
        rows.append(f"| {d.weight.label} | {d.kind} | {d.subject or '-'} | {_cell(d.a)} | {_cell(d.b)} |")
    return rows


def render_diff_markdown(report: DiffReport) -> str:
    lines = ["## dldoctor diff", "", f"A: `{report.a}`  ", f"B: `{report.b}`", "", *_diff_table(report.differences)]
    lines += ["", *[f"- note: {n}" for n in report.notes], f"**{_summary_line(report.differences)}**"]
    return "\n".join(lines) + "\n"


def render_diff_json(report: DiffReport) -> str:
    return json.dumps(diff_dict(report), indent=2, ensure_ascii=False) + "\n"


def _group_dict(g: Group, baseline: bool) -> Dict[str, Any]:
    return {
        "machines": list(g.machines),
        "baseline": baseline,
        "differences": [difference_dict(d) for d in g.diff.differences] if g.diff else [],
        "findings": [finding_dict(f) for f in _sorted(g.findings)],
    }


def _sorted(findings: Sequence[Finding]) -> List[Finding]:
    return sorted(findings, key=lambda f: (-f.level, f.condition.code))


def fleet_dict(report: FleetReport) -> Dict[str, Any]:
    return {
        "schema_version": FLEET_SCHEMA_VERSION,
        "dldoctor_version": __version__,
        "source": report.source,
        "machines": report.machines,
        "summary": report.summary,
        "groups": [_group_dict(g, i == 0) for i, g in enumerate(report.groups)],
        "failed": [{"machine": m, "error": why} for m, why in report.failed],
    }


def render_fleet_json(report: FleetReport) -> str:
    return json.dumps(fleet_dict(report), indent=2, ensure_ascii=False) + "\n"


def _listed(names: Sequence[str]) -> str:
    more = len(names) - NAMES_LISTED
    return ", ".join(names[:NAMES_LISTED]) + (f" and {more} more" if more > 0 else "")


def _finding_lines(findings: Sequence[Finding], indent: str) -> List[str]:
    if not findings:
        return [f"{indent}findings: none"]
    return [f"{indent}{MARKS[f.level]} {f.condition.code} {f.condition.slug}: {f.message}" for f in _sorted(findings)]


def render_fleet_text(report: FleetReport) -> str:
    lines = [f"dldoctor fleet  {report.machines} machine{'s' if report.machines != 1 else ''} from {report.source}",
             "", report.summary, ""]
    for i, g in enumerate(report.groups):
        title = "baseline" if i == 0 else f"group {i + 1}"
        lines.append(f"{title} ({len(g.machines)}): {_listed(g.machines)}")
        if g.diff:
            lines.append("  differences from the baseline:")
            lines += _diff_lines(g.diff.differences, "    ")
        lines += _finding_lines(g.findings, "  ")
        lines.append("")
    if report.failed:
        lines.append("without a snapshot:")
        lines += [f"  ✗ {m}: {why}" for m, why in report.failed]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_fleet_markdown(report: FleetReport) -> str:
    lines = ["## dldoctor fleet", "", f"**{report.summary}**", ""]
    for i, g in enumerate(report.groups):
        title = "Baseline" if i == 0 else f"Group {i + 1}"
        lines += [f"### {title}: {len(g.machines)} machine{'s' if len(g.machines) != 1 else ''}", "",
                  _listed(g.machines), ""]
        if g.diff:
            lines += [*_diff_table(g.diff.differences), ""]
        found = [f"- {f.level.label} `{f.condition.slug}`: {f.message}" for f in _sorted(g.findings)]
        lines += found or ["No findings."]
        lines.append("")
    if report.failed:
        lines += ["### Without a snapshot", "", "| machine | why |", "|---|---|"]
        lines += [f"| {m} | {why.replace('|', '/')} |" for m, why in report.failed]
    return "\n".join(lines).rstrip("\n") + "\n"


DIFF_RENDERERS: Dict[str, Callable[[DiffReport], str]] = {
    "text": render_diff_text, "json": render_diff_json, "markdown": render_diff_markdown}
FLEET_RENDERERS: Dict[str, Callable[[FleetReport], str]] = {
    "text": render_fleet_text, "json": render_fleet_json, "markdown": render_fleet_markdown}
