"""Markdown: the report, ready to paste into a GitHub issue (details folded), and the
condition pages of docs/rules/ and `dldoctor rules SLUG`."""

from __future__ import annotations

from typing import List, Mapping, Sequence

from dldoctor.model import Condition, Report, Severity

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


PLATFORM_NAMES = {"windows": "Windows", "linux": "Linux", "macos": "macOS", "any": "all platforms"}
DETECTED_BY = {
    "check": "`dldoctor check`: in an environment (its static checks, or the import probes it runs)",
    "probe": "`dldoctor probe`: when it happens to an import in a fresh subprocess",
    "explain": "`dldoctor explain`: in a pasted error message or log",
    "lint": "`dldoctor lint`: in your source code",
    "wheels": "`dldoctor wheels`: in a Windows wheel set, before installing it",
}


def render_rule_page(c: Condition, detected_by: Sequence[str] = ()) -> str:
    """A condition's page (ruff's rule-docs outline): what, why, example, how to confirm,
    which commands detect it, fix, references."""
    lines: List[str] = [
        f"# {c.slug} ({c.code})",
        "",
        f"**{c.title}** · severity: {c.severity.label} · platforms: "
        + ", ".join(PLATFORM_NAMES[p] for p in c.platforms),
        "",
        "## What it is",
        "",
        c.summary,
        "",
        "## Why it matters",
        "",
        c.why,
        "",
        "## Example",
        "",
        "```",
        c.example,
        "```",
        "",
    ]
    if c.confirm:
        lines += ["## How to confirm", "", c.confirm, ""]
    if detected_by:
        lines += ["## Detected by", "", *(f"- {DETECTED_BY[cmd]}" for cmd in detected_by), ""]
    lines += ["## Fix", ""]
    for fix in c.fixes:
        where = ", ".join(PLATFORM_NAMES[p] for p in fix.platforms)
        lines.append(f"- ({where}) {fix.text}" if fix.platforms != ("any",) else f"- {fix.text}")
    lines += ["", "## References", ""]
    lines += [f"- [{r.title}]({r.url})" for r in c.references]
    if c.seeds:
        lines += ["", f"Seen in seed reports: {', '.join(c.seeds)}."]
    lines += ["", f"Silence with `--ignore {c.code}` (or `--ignore {c.slug}`)."]
    return "\n".join(lines) + "\n"


def render_rules_index(conds: Sequence[Condition], detected_by: Mapping[str, Sequence[str]]) -> str:
    """The index page: one row per condition, with the commands that detect it."""
    lines = ["# dldoctor conditions", "", "Generated from `src/dldoctor/conditions/conditions.toml`.", "",
             "| code | slug | title | severity | detected by |", "|---|---|---|---|---|"]
    for c in conds:
        cmds = ", ".join(detected_by.get(c.slug, ()))
        lines.append(f"| {c.code} | [{c.slug}]({c.slug}.md) | {_cell(c.title)} | {c.severity.label} | {cmds} |")
    return "\n".join(lines) + "\n"
