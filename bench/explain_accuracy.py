"""Accuracy of `dldoctor explain` on the corpus of real error texts (tests/data/explain).

Prints top-1 / top-3 per family (the confirmed cause's condition) and overall, separately
for the held-out fifth and the cases seen while writing signatures, with machine facts
(as `dldoctor explain` run on the reporter's machine: its OS plus facts the thread
confirmed) and from the text alone.

    python bench/explain_accuracy.py [--misses]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from dldoctor.explainer.corpus import Outcome, accuracy, by_family, evaluate, load_corpus

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "explain"


def _row(label: str, outcomes: Sequence[Outcome]) -> str:
    t1, t3 = accuracy(outcomes)
    return f"{label:<30} {len(outcomes):>4} {t1:>7.1%} {t3:>7.1%}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="list cases not ranked first")
    args = parser.parse_args()
    cases = load_corpus(CORPUS)
    with_facts = evaluate(cases, use_facts=True)
    text_only = evaluate(cases, use_facts=False)
    print(f"{'family':<30} {'n':>4} {'top-1':>7} {'top-3':>7}   (with machine facts)")
    for family, group in by_family(with_facts).items():
        print(_row(family, group))
    print("-" * 52)
    for name, outcomes in (("with machine facts", with_facts), ("text only", text_only)):
        seen = [o for o in outcomes if not o.case.held_out]
        held = [o for o in outcomes if o.case.held_out]
        print(_row(f"overall, {name}", outcomes))
        print(_row(f"  seen, {name}", seen))
        print(_row(f"  held-out, {name}", held))
    families = {c.cause for c in cases}
    print(f"cases: {len(cases)}, families: {len(families)}")
    if args.misses:
        for o in with_facts:
            if not o.top1:
                split = "held-out" if o.case.held_out else "seen"
                print(f"MISS {o.case.name} [{split}] want {o.case.cause}, got {list(o.ranked[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
