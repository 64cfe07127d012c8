"""Accuracy of `dldoctor explain` on the corpus of real error texts (tests/data/explain).

Prints top-1 / top-3 per family (the confirmed cause's condition; train split only) and overall, separately
for the frozen test split and the train split (tests/data/explain/{train,test}), with machine facts
(as `dldoctor explain` run on the reporter's machine: its OS plus facts the thread
confirmed) and from the text alone.

    python bench/explain_accuracy.py [--misses]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from dldoctor.explainer.corpus import SPLITS, Outcome, accuracy, by_family, evaluate, load_corpus

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
    print(f"{'family (train split)':<30} {'n':>4} {'top-1':>7} {'top-3':>7}   (with machine facts)")
    for family, group in by_family([o for o in with_facts if o.case.split == "train"]).items():
        print(_row(family, group))
    print("-" * 52)
    for name, outcomes in (("with machine facts", with_facts), ("text only", text_only)):
        print(_row(f"overall, {name}", outcomes))
        for split in SPLITS:
            print(_row(f"  {split}, {name}", [o for o in outcomes if o.case.split == split]))
    families = {c.cause for c in cases}
    print(f"cases: {len(cases)}, families: {len(families)}")
    if args.misses:  # the train split only: the test split's misses are not read while tuning
        for o in with_facts:
            if not o.top1 and o.case.split == "train":
                print(f"MISS {o.case.name} want {o.case.cause}, got {list(o.ranked[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
