"""Condition pages, generated from conditions.toml (ruff's rule-docs outline).

``python -m dldoctor.docs`` rewrites docs/rules/; ``--check`` fails when they are stale,
which a test runs, so docs and data never drift. ``dldoctor rules SLUG`` prints the same page.
Each page says which commands detect the condition (:mod:`dldoctor.detection`); a condition
that nothing detects stops the generation with the steps to take.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence

from dldoctor.conditions import all_conditions
from dldoctor.detection import detectors, require_detection
from dldoctor.model import Condition
from dldoctor.render.markdown import render_rule_page, render_rules_index


def render_page(c: Condition) -> str:
    """The docs page of one condition (what `dldoctor rules SLUG` prints too)."""
    require_detection()
    return render_rule_page(c, detectors()[c.slug])


def render_index() -> str:
    require_detection()
    return render_rules_index(all_conditions(), detectors())


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
