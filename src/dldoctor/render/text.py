"""Text: the report in the doctor style (grouped [✗] [!] [✓] lines, evidence, one fix each),
explain's answer-first diagnoses, and the list of conditions."""

from __future__ import annotations

import os
import sys
from typing import List, Optional, Sequence

from dldoctor import conditions
from dldoctor.explainer.redact import redact
from dldoctor.explainer.report import ExplainReport, hit_line, message
from dldoctor.model import Condition, Report, Severity

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


def _pct(conf: float) -> str:
    return f"{round(conf * 100):d}%"


def render_explain(report: ExplainReport, limit: Optional[int] = 3) -> str:
    """`dldoctor explain`: the answer first in one line, then for each candidate: the matched
    lines, what it means, the fix and how to confirm it."""
    shown = report.shown[:limit] if limit else report.shown
    rest = report.shown[len(shown) :]
    if not shown:
        return f"dldoctor explain: no known condition matched ({report.lines} lines read)\n"
    best = shown[0]
    cond = conditions.get(best.slug)
    out = [f"{cond.code} {cond.slug} ({_pct(best.confidence)}): {message(best)}"]
    others = ", ".join(f"{c.slug} {_pct(c.confidence)}" for c in (*shown[1:], *rest))
    if others:
        out.append(f"  other candidates: {others}")
    for i, cand in enumerate(shown, 1):
        cond = conditions.get(cand.slug)
        out.append("")
        out.append(f"{i}. {cond.code} {cond.slug}  confidence {_pct(cand.confidence)}")
        out.append(f"   {cond.title}")
        for hit in cand.hits[:3]:
            out.append(f"   matched  {hit_line(hit)}")
        for label, value in cand.evidence:
            out.append(f"   evidence {label}: {redact(value)}")
        out.append(f"   means    {cond.summary}")
        out.append(f"   fix      {cond.fix_for(report.platform)}")
        out.append(f"   confirm  {cond.confirm}")
    out.append("")
    out.append(f"machine facts: {report.machine}; fixes shown for: {report.platform}")
    out.extend(f"note: {n}" for n in report.notes)
    return "\n".join(out) + "\n"


def render_rules(conds: Sequence[Condition]) -> str:
    """`dldoctor rules`: one line per condition, code, slug and title."""
    width = max((len(c.slug) for c in conds), default=0)
    return "".join(f"{c.code}  {c.slug:<{width}}  {c.title}\n" for c in conds)
