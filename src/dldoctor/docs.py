"""Condition pages, generated from conditions.toml (ruff's rule-docs outline).

``python -m dldoctor.docs`` rewrites docs/rules/; ``--check`` fails when they are stale,
which a test runs, so docs and data never drift. ``dldoctor rules SLUG`` prints the same page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from dldoctor.conditions import all_conditions
from dldoctor.model import Condition

PLATFORM_NAMES = {"windows": "Windows", "linux": "Linux", "macos": "macOS", "any": "all platforms"}


def render_page(c: Condition) -> str:
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


def render_index() -> str:
    lines = ["# dldoctor conditions", "", "Generated from `src/dldoctor/conditions/conditions.toml`.", "",
             "| code | slug | title | severity |", "|---|---|---|---|"]
    for c in all_conditions():
        lines.append(f"| {c.code} | [{c.slug}]({c.slug}.md) | {c.title.replace('|', '/')} | {c.severity.label} |")
    return "\n".join(lines) + "\n"


def expected_files() -> Dict[str, str]:
    files = {f"{c.slug}.md": render_page(c) for c in all_conditions()}
    files["README.md"] = render_index()
    return files


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dldoctor.docs", description=__doc__)
    ap.add_argument("--dir", default="docs/rules")
    ap.add_argument("--check", action="store_true", help="exit 1 if the pages are stale")
    args = ap.parse_args(argv)
    out = Path(args.dir)
    want = expected_files()
    if args.check:
        have = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")} if out.is_dir() else {}
        stale = sorted(n for n in set(want) | set(have) if want.get(n) != have.get(n))
        for name in stale:
            print(f"stale: {out / name}", file=sys.stderr)
        return 1 if stale else 0
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.md"):
        if old.name not in want:
            old.unlink()
    for name, text in want.items():
        (out / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
