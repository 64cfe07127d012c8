"""Rebuild explain's word table (src/dldoctor/conditions/words.json) from the explain corpus's
train split; run it whenever train changes (a test fails until the table matches train).

    python tools/build_word_table.py
"""

from __future__ import annotations

from pathlib import Path

from _run import run

from dldoctor.explainer.corpus import GENERATION, load_corpus
from dldoctor.explainer.words_table import TABLE, build_table, dump_table

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "explain"


def main() -> int:
    cases = [(c.name, c.cause, c.text) for c in load_corpus(CORPUS, ("train",))]
    source = f"tests/data/explain/train (train split while generation {GENERATION} is held out)"
    out = ROOT / "src" / "dldoctor" / "conditions" / TABLE
    out.write_text(dump_table(build_table(cases, source)), encoding="utf-8")
    print(f"{out.relative_to(ROOT)}: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    run(main, __file__)
