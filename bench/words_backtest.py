"""Backtest of word evidence (explainer/words.py) on held-out reports no rule was written on.

Each used-up generation of the explain corpus's frozen test split is replayed as it stood
the day it was measured: the repository at the commit before its cases joined train gives
the rules (that commit's code, run in a subprocess) and the train split (the word table is
built from it with today's builder). Every held-out case is ranked by those rules alone, and
by those rules with today's word evidence added, so the difference is what word evidence
would have given on reports it never saw.

    python bench/words_backtest.py            (needs the git history: a full clone)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.match import Candidate, Hit
from dldoctor.explainer.report import MIN_SHOWN
from dldoctor.explainer.words import with_words
from dldoctor.explainer.words_table import build_table, parse_table

ROOT = Path(__file__).resolve().parent.parent
#: generation -> the last commit at which its held-out cases were the test split (the parent
#: of the commit that moved them into train; see known_misses.txt for each generation's note)
GENERATIONS = {
    2: "e5edffe", 3: "0997953", 4: "4e17c4b", 5: "41eb0bf", 6: "7b780cd",
    7: "ab4d5a6", 8: "4359f06", 9: "a07b8cd", 10: "c4afe7f", 11: "05b894b", 12: "c112d17",
    13: "7202ec8", 14: "baa6e8f", 15: "37de6c9", 16: "ee6bb5a", 17: "7347400", 18: "19de32b", 19: "19bd046",
    20: "0dec871", 21: "022a156", 22: "7ebeec0", 23: "808ad82", 24: "c07b2fe", 25: "9d0e516",
    26: "d037ddb", 27: "0cfb719", 28: "6c10988", 29: "fca8ed3", 30: "1efd75ac", 31: "f333a5fc",
    32: "a7f60de3", 33: "f907ebfd", 34: "659a7959", 35: "0d135673", 36: "f239ff9d", 37: "7cc37dd1",
}
#: run inside the old commit's code: its candidates for each held-out case, as JSON lines
RANK = """
import inspect, json, sys, pathlib
from dldoctor.explainer import diagnose_text
from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.match import is_fallback
rules_only = {"words": False} if "words" in inspect.signature(diagnose_text).parameters else {}
for c in load_corpus(pathlib.Path(sys.argv[1]), ("test",)):
    shown = diagnose_text(c.text, facts=c.machine_facts(), **rules_only).shown
    print(json.dumps([c.name, [[s.slug, s.confidence, is_fallback(s)] for s in shown]]))
"""


def _replay(commit: str, where: Path) -> Tuple[int, int, int, int, int]:
    """(cases, top-1 and top-3 by the rules, top-1 and top-3 with word evidence) at ``commit``."""
    tree = where / commit
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), commit], check=True)
    try:
        corpus = tree / "tests" / "data" / "explain"
        train = load_corpus(corpus, ("train",))
        table = parse_table(build_table([(c.name, c.cause, c.text) for c in train], f"backtest {commit}"))
        cases = {c.name: c for c in load_corpus(corpus, ("test",))}
        out = subprocess.run([sys.executable, "-c", RANK, str(corpus)], capture_output=True, text=True, check=True,
                             env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"})
        n = r1 = r3 = w1 = w3 = 0
        for line in out.stdout.splitlines():
            name, cands = json.loads(line)
            case = cases[name]
            rules = tuple(Candidate(s, conf, (Hit("shape-x" if fb else "rule", 1, "", ()),)) for s, conf, fb in cands)
            words = [c.slug for c in with_words(rules, case.text, table) if c.confidence >= MIN_SHOWN]
            ranked = [c.slug for c in rules]
            n += 1
            r1 += ranked[:1] == [case.cause]
            r3 += case.cause in ranked[:3]
            w1 += words[:1] == [case.cause]
            w3 += case.cause in words[:3]
        return n, r1, r3, w1, w3
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)


def main() -> int:
    totals: List[int] = [0, 0, 0, 0, 0]
    rows: Dict[int, Tuple[int, int, int, int, int]] = {}
    with tempfile.TemporaryDirectory() as where:
        for gen, commit in GENERATIONS.items():
            rows[gen] = _replay(commit, Path(where))
            totals = [a + b for a, b in zip(totals, rows[gen])]
    print(f"{'generation':<12} {'n':>4}  {'rules top-1/3':>15}  {'+ words top-1/3':>17}")
    for gen, (n, r1, r3, w1, w3) in [*rows.items(), ("all", tuple(totals))]:  # type: ignore[list-item]
        print(f"{gen!s:<12} {n:>4}  {r1 / n:>7.1%}/{r3 / n:<7.1%}  {w1 / n:>8.1%}/{w3 / n:<8.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
