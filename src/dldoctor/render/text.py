"""Text report in the doctor style: grouped [✗] [!] [✓] lines, evidence, one fix each."""

from __future__ import annotations

import os
import sys
from typing import List

from dldoctor.model import Report, Severity

MARK = {Severity.ERROR: "[✗]", Severity.WARNING: "[!]", Severity.INFO: "[i]"}
COLOR = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
RESET, GREEN, DIM = "\033[0m", "\033[32m", "\033[2m"


def _use_color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def render_text(report: Report, color: bool | None = None) -> str:
    color = _use_color() if color is None else color

    def paint(code: str, s: str) -> str:
        return f"{code}{s}{RESET}" if color else s

    lines: List[str] = [f"dldoctor: {report.target}"]
    for fact in report.facts:
        lines.append(f"  {fact.label}: {fact.value}")
    lines.append("")
    findings = sorted(report.findings, key=lambda f: (-f.level, f.condition.code))
    for f in findings:
        tag = "observed" if f.observed else ""
        head = f"{MARK[f.level]} {f.condition.slug} ({f.condition.code}): {f.message}"
        lines.append(paint(COLOR[f.level], head) + (f"  {tag}" if tag else ""))
        for ev in f.evidence:
            lines.append(paint(DIM, f"      {ev.label}: {ev.value}") if color else f"      {ev.label}: {ev.value}")
        if f.fix:
            lines.append(f"    fix: {f.fix}")
    passed = [r.condition.slug for r in report.results if not r.findings and not r.skipped]
    if passed:
        lines.append(paint(GREEN, f"[✓] {len(passed)} checks passed: ") + ", ".join(passed))
    skipped = [f"{r.condition.slug} ({r.skipped})" for r in report.results if r.skipped and not r.findings]
    if skipped:
        lines.append(f"[-] not applicable: {', '.join(skipped)}")
    for err in report.errors:
        lines.append(f"[?] could not check: {err}")
    counts = {s: sum(1 for f in findings if f.level == s) for s in Severity}
    lines.append("")
    summary = f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s)"
    if findings:
        summary += f". More on each: dldoctor rules {findings[0].condition.slug}"
    lines.append(summary)
    return "\n".join(lines) + "\n"
