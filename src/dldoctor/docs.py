"""Condition pages, generated from conditions.toml (ruff's rule-docs outline).

``python -m dldoctor.docs`` rewrites docs/rules/; ``--check`` fails when they are stale,
which a test runs, so docs and data never drift. ``dldoctor rules SLUG`` prints the same page.
Each page says which commands detect the condition (:mod:`dldoctor.detection`); a condition
that nothing detects stops the generation with the steps to take. The committed index is the
record of published codes: a renumbered, reused or dropped code stops it too.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

from dldoctor.conditions import DataError, all_conditions
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


_ROW = re.compile(r"^\| (DLD\d{3}) \| \[([a-z0-9-]+)\]", re.M)


def published_codes(index: Path) -> Dict[str, str]:
    """slug -> code as the committed index (docs/rules/README.md) has published them."""
    if not index.is_file():
        return {}
    return {slug: code for code, slug in _ROW.findall(index.read_text(encoding="utf-8"))}


def renumbered(published: Mapping[str, str]) -> List[str]:
    """Problems with the data against what was published: codes are assigned once, never
    changed, never reused; a published slug is never dropped."""
    now = {c.slug: c.code for c in all_conditions()}
    owner = {code: slug for slug, code in published.items()}
    out = [f"{slug} was published as {code}, the data says {now.get(slug, 'nothing')}"
           for slug, code in sorted(published.items()) if now.get(slug) != code]
    out += [f"{code} belonged to {owner[code]}, the data gives it to {slug}"
            for slug, code in sorted(now.items()) if owner.get(code, slug) != slug]
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dldoctor.docs", description=__doc__)
    ap.add_argument("--dir", default="docs/rules")
    ap.add_argument("--check", action="store_true", help="exit 1 if the pages are stale")
    args = ap.parse_args(argv)
    out = Path(args.dir)
    problems = renumbered(published_codes(out / "README.md"))
    if problems:
        for p in problems:
            print(f"dldoctor.docs: {p}", file=sys.stderr)
        print("dldoctor.docs: condition codes are assigned once (users --ignore them); nothing written",
              file=sys.stderr)
        return 1
    try:
        want = expected_files()
    except DataError as exc:  # a newcomer's half-added condition: one line that says what to do
        print(f"dldoctor.docs: {exc}", file=sys.stderr)
        return 2
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
