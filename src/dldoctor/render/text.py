"""Text: the report in the doctor style (grouped [✗] [!] [✓] lines, evidence, one fix each),
explain's answer-first diagnoses, deps' tree and the list of conditions.

Imports stay inside the functions that need them: `dldoctor deps` prints its tree through
this module and must start without loading the models, the data or explain.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, List, Optional, Sequence, Set, Tuple

if TYPE_CHECKING:
    from dldoctor.explainer.report import ExplainReport
    from dldoctor.loader.graph import LoadGraph
    from dldoctor.model import Condition, Report

MARK = {"error": "[✗]", "warning": "[!]", "info": "[i]"}
COLOR = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
RESET, GREEN, DIM = "\033[0m", "\033[32m", "\033[2m"


def _use_color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def render_text(report: Report, color: Optional[bool] = None) -> str:
    from dldoctor.model import Severity

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
        head = f"{MARK[f.level.label]} {f.condition.slug} ({f.condition.code}): {f.message}"
        lines.append(paint(COLOR[f.level.label], head) + (f"  {tag}" if tag else ""))
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
    loud = [f for f in findings if f.level in (Severity.ERROR, Severity.WARNING)]
    if loud:  # the first thing to fix, not an info
        summary += f". More on each: dldoctor rules {loud[0].condition.slug}"
    lines.append(summary)
    return "\n".join(lines) + "\n"


def _pct(conf: float) -> str:
    return f"{round(conf * 100):d}%"


def render_explain(report: ExplainReport, limit: Optional[int] = 3) -> str:
    """`dldoctor explain`: the answer first in one line, then for each candidate: the matched
    lines, what it means, the fix and how to confirm it."""
    from dldoctor import conditions
    from dldoctor.explainer.redact import redact
    from dldoctor.explainer.report import hit_line, message

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


def tilde(path: Optional[str]) -> str:
    """Home shown as ``~`` (nothing of the user's layout leaks into pasted output)."""
    from dldoctor.redact import redact_home

    return redact_home(path) if path else ""


#: Tree levels drawn with guides; deeper lines say their depth instead ("⋮ [depth 41]"), so
#: a chain of thousands of libraries prints lines of bounded width (output linear in size).
MAX_DRAWN_DEPTH = 24


def render_deps(graph: LoadGraph) -> str:
    """`dldoctor deps`: the tree as ``libtree`` draws it, each object expanded once, under its
    first requester, each edge with the rule that found it.

    Walked with an explicit stack (a DT_NEEDED chain can be thousands deep)."""
    from dldoctor.loader.graph import ALREADY_LOADED, NOT_FOUND, UNREADABLE, WRONG_ARCHITECTURE, is_failure

    failed = {
        NOT_FOUND: "not found",
        WRONG_ARCHITECTURE: "only a wrong-architecture copy",
        UNREADABLE: "found a file the loader cannot load",
    }
    lines = [tilde(graph.root)]
    kids = graph.by_requester()
    why = dict(graph.unreadable)
    expanded: Set[str] = {graph.root}
    # (requester, its guide prefix, its depth, index of the next child to draw)
    stack: List[Tuple[str, str, int, int]] = [(graph.root, "", 0, 0)]
    while stack:
        requester, prefix, depth, i = stack.pop()
        children = kids.get(requester, [])
        if i >= len(children):
            continue
        stack.append((requester, prefix, depth, i + 1))
        res = children[i]
        last = i == len(children) - 1
        if depth < MAX_DRAWN_DEPTH:
            head, pad = prefix + ("└── " if last else "├── "), prefix + ("    " if last else "│   ")
        else:
            head = pad = f"⋮ [depth {depth + 1}] "
        if is_failure(res):
            lines.append(f"{head}{res.name} [{res.rule}] {failed.get(res.rule, res.rule)}")
            lines.extend(f"{pad}    tried: {tilde(t)}" for t in res.tried)
            for s in res.shadowed:
                if res.rule == UNREADABLE:
                    lines.append(f"{pad}    unreadable: {tilde(s)}: {why.get(s, 'not a loadable binary')}")
                else:
                    lines.append(f"{pad}    skipped: {tilde(s)}")
            continue
        lines.append(f"{head}{res.name} [{res.rule}] {tilde(res.path) or '(not on disk here)'}")
        if res.path and res.rule != ALREADY_LOADED and res.path not in expanded:
            expanded.add(res.path)
            stack.append((res.path, pad, depth + 1, 0))
    if graph.error:
        lines.append(f"load would fail: {graph.error}")
    lines.extend(f"note: {n}" for n in graph.notes)
    lines.extend(f"unreadable: {tilde(p)}: {w}" for p, w in graph.unreadable)
    return "\n".join(lines)
