"""Accuracy of `dldoctor explain` on the corpus of real error texts (tests/data/explain).

Prints top-1 / top-3 per family (the confirmed cause's condition; train split only) and overall, separately
for the frozen test split and the train split (tests/data/explain/{train,test}), with machine facts
(as `dldoctor explain` run on the reporter's machine: its OS plus facts the thread
confirmed) and from the text alone; how many import failures got no answer at all; and how
often the top candidate is right in each confidence band (calibration), per split.

Each is given for the whole of explain and for its rules alone (no word evidence): the word
table is built from the train split, so on train "with words" is an in-sample number; the
rules are what train measures, and the test split measures both.

    python bench/explain_accuracy.py [--split train|test] [--misses]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import List, Sequence, Tuple

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.corpus import SPLITS, Case, Outcome, accuracy, by_family, evaluate, load_corpus
from dldoctor.explainer.signatures import load_signatures

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "explain"
#: the fallback shapes of a failed import or library load (issue 14: "unanswered import failures")
IMPORT_SHAPES = ("shape-windows-dll-load", "shape-elf-load", "shape-dylib-load", "shape-node-addon-load",
                 "shape-import-failed", "shape-crash-on-import")
BANDS = ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01))


def _row(label: str, outcomes: Sequence[Outcome]) -> str:
    t1, t3 = accuracy(outcomes)
    return f"{label:<30} {len(outcomes):>4} {t1:>7.1%} {t3:>7.1%}"


def _import_failure(case: Case) -> bool:
    """The text is a failed import or library load (an error shape a fallback recognises)."""
    from dldoctor.explainer.match import find_hits
    from dldoctor.explainer.signatures import SignatureSet

    shapes = tuple(f for f in load_signatures().fallbacks if f.id in IMPORT_SHAPES)
    return bool(find_hits(case.text, SignatureSet(shapes, ())))


def _calibration(cases: Sequence[Case]) -> List[Tuple[str, int, float]]:
    """(band, cases whose top candidate falls in it, fraction of those where it is right)."""
    tops = []
    for case in cases:
        shown = diagnose_text(case.text, facts=case.machine_facts(), words=case.split == "test").shown
        if shown:
            tops.append((shown[0].confidence, shown[0].slug == case.cause))
    out = []
    for lo, hi in BANDS:
        band = [right for conf, right in tops if lo <= conf < hi]
        out.append((f"{lo:.0%}-{min(hi, 1.0):.0%}", len(band), sum(band) / len(band) if band else 0.0))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=SPLITS, help="report this split only")
    parser.add_argument("--misses", action="store_true", help="list train cases not ranked first")
    args = parser.parse_args()
    splits = (args.split,) if args.split else SPLITS
    cases = load_corpus(CORPUS, splits)
    with_facts = evaluate(cases, use_facts=True)
    text_only = evaluate(cases, use_facts=False)
    rules = evaluate(cases, use_facts=True, words=False)
    rules_text = evaluate(cases, use_facts=False, words=False)
    print(f"{'family (train split)':<30} {'n':>4} {'top-1':>7} {'top-3':>7}   (rules, with machine facts)")
    for family, group in by_family([o for o in rules if o.case.split == "train"]).items():
        print(_row(family, group))
    print("-" * 52)
    for name, outcomes in (("with machine facts", with_facts), ("text only", text_only),
                           ("rules, machine facts", rules), ("rules, text only", rules_text)):
        for split in splits:
            note = "  (in-sample: words built from train)" if split == "train" and "rules" not in name else ""
            print(_row(f"{split}, {name}", [o for o in outcomes if o.case.split == split]) + note)
    for split in splits:
        failures = [o for o in with_facts if o.case.split == split and _import_failure(o.case)]
        silent = sum(1 for o in failures if not o.ranked)
        unanswered = sum(1 for o in with_facts if o.case.split == split and not o.ranked)
        print(f"{split}: import failures {len(failures)}, unanswered {silent}; no answer at all: {unanswered}")
        kind = "words" if split == "test" else "rules"
        print(f"{split}: calibration (machine facts, {kind}): band, cases, top-1 right")
        for band, n, right in _calibration([c for c in cases if c.split == split]):
            print(f"    {band:>9} {n:>5} {right:>7.1%}")
    print(f"cases: {len(cases)}, families: {len({c.cause for c in cases})}")
    if args.misses:  # the train split only: the test split's misses are not read while tuning
        for o in rules:
            if not o.top1 and o.case.split == "train":
                print(f"MISS {o.case.name} want {o.case.cause}, got {list(o.ranked[:3])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
