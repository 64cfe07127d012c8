"""Markdown report, ready to paste into a GitHub issue (details folded)."""

from __future__ import annotations

from typing import List

from dldoctor.model import Report, Severity

ICON = {Severity.ERROR: "❌", Severity.WARNING: "⚠️", Severity.INFO: "ℹ️"}


def _cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def render_markdown(report: Report) -> str:
    out: List[str] = ["### dldoctor report", "", "| | |", "|---|---|", f"| target | `{_cell(report.target)}` |"]
    out += [f"| {_cell(e.label)} | `{_cell(e.value)}` |" for e in report.facts]
    out.append("")
    findings = sorted(report.findings, key=lambda f: (-f.level, f.condition.code))
    if not findings:
        out.append("✅ No problems found.")
    for f in findings:
        out.append(f"- {ICON[f.level]} **{f.condition.code} {f.condition.slug}**: {f.message}")
        if f.evidence or f.fix:
            out.append("  <details><summary>evidence and fix</summary>")
            out.append("")
            out += [f"  - {e.label}: `{e.value}`" for e in f.evidence]
            if f.fix:
                out.append(f"  - **fix**: {f.fix}")
            out.append("")
            out.append("  </details>")
    passed = [r.condition.slug for r in report.results if not r.findings and not r.skipped]
    if passed:
        out += ["", f"<sub>passed: {', '.join(passed)}</sub>"]
    for err in report.errors:
        out.append(f"- could not check: {err}")
    return "\n".join(out) + "\n"
