"""``python -m dldoctor.dev``: tools for working on dldoctor (not for its users)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from dldoctor.conditions import DataError
from dldoctor.dev import layers, scaffold

NEXT_STEPS = """\
{code} {slug}: skeletons written (each TODO must go; the tests fail until it has):
  {files}
next:
  1. fill the [[condition]] entry (title, summary, why, a real error text as example, confirm,
     fixes, references) and the [[signature]] that recognises the example;
  2. write the check and its two tests (found on a snapshot that shows it; quiet when healthy);
  3. .venv/bin/python -m dldoctor.docs   (regenerates docs/rules/, with the commands that detect it);
  4. .venv/bin/python -m pytest tests/checks/test_{topic}.py tests/test_detection.py \\
       tests/test_scaffold.py tests/conditions
See CONTRIBUTING.md, "Adding a condition".
"""


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dldoctor.dev", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new-condition", help="scaffold a condition: data entry, signature, check, tests")
    new.add_argument("slug", help="kebab-case name, e.g. pip-leftovers")
    new.add_argument("--topic", required=True,
                     help="check module under dldoctor/checks/ (an existing one such as installs, or a new name)")
    new.add_argument("--root", default=".", help="repository root (default: here)")
    sub.add_parser("next-code", help="print the next free condition code").add_argument("--root", default=".")
    sub.add_parser("layers", help="list imports that point to a higher layer")
    args = ap.parse_args(argv)
    if args.command == "layers":
        found = layers.violations()
        for v in found:
            print(v)
        return 1 if found else 0
    tree = scaffold.Tree(Path(args.root).resolve())
    if not (tree.data / "conditions.toml").is_file():
        print(f"dldoctor.dev: {tree.root} is not a dldoctor checkout (--root)", file=sys.stderr)
        return 2
    if args.command == "next-code":
        print(scaffold.next_code(tree))
        return 0
    try:
        code = scaffold.next_code(tree)
        files = scaffold.new_condition(args.slug, args.topic, tree)
    except DataError as exc:
        print(f"dldoctor.dev: {exc}", file=sys.stderr)
        return 2
    print(NEXT_STEPS.format(code=code, slug=args.slug, topic=args.topic,
                            files="\n  ".join(str(f.relative_to(tree.root)) for f in files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
