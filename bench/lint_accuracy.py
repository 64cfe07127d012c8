"""Accuracy of the main-guard rule (DLD026) on the labelled spawn corpus (tests/data/lint/corpus).

Every label was measured by running the script under spawn. Prints precision and recall per
split (the test split is frozen: a hash of the file name picks it) and, with ``--misses``,
the train split's mistakes only.

    python bench/lint_accuracy.py [--misses]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Dict, List

from dldoctor.lint import lint_paths
from dldoctor.lint.corpus import SPLITS, load_labels, score, verdict

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "lint" / "corpus"


def found_lines(files: List[Path]) -> Dict[str, List[int]]:
    result = lint_paths([str(f) for f in files], select=["multiprocessing-main-guard"])
    out: Dict[str, List[int]] = {}
    for f in result.findings:
        out.setdefault(f.path, []).append(f.line)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", action="store_true", help="list the train split's mistakes")
    args = parser.parse_args()
    labels = load_labels(CORPUS)
    by_path = found_lines([CORPUS / x.file for x in labels])
    found = {x.file: by_path.get(str(CORPUS / x.file), []) for x in labels}
    print(f"{'split':<8} {'scripts':>7} {'failing':>7} {'TP':>4} {'FP':>4} {'FN':>4} "
          f"{'precision':>9} {'recall':>7} {'exact lines':>11}")
    for split in (*SPLITS, "all"):
        group = [x for x in labels if split in (x.split, "all")]
        s = score(group, found)
        print(f"{split:<8} {s.n:>7} {s.failing:>7} {s.tp:>4} {s.fp:>4} {s.fn:>4} "
              f"{s.precision:>9.3f} {s.recall:>7.3f} {s.exact:>6}/{s.n}")
    if args.misses:
        for x in labels:
            v = verdict(x, found[x.file])
            exact = sorted(set(found[x.file])) == sorted(x.lines)
            if x.split == "train" and (v not in ("tp", "tn") or not exact):
                print(f"  {v:<6} {x.file}: expected {list(x.lines)}, found {found[x.file]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
