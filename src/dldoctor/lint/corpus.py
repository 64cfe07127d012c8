"""The main-guard rule's labelled corpus: load the labels, split them, score the rule.

The labels (``tests/data/lint/corpus/labels.toml``) come from running each script under
spawn; this module only reads them and compares them with ``dldoctor lint``. A third of the
corpus is a frozen test split, chosen by a hash of the file name (not by content), so the
rule can be tuned on the rest without looking at it.

Scoring per script, as a hidden set is scored: a script with a finding is a positive; it is a
true positive when the script fails and a finding sits on the line where the child died (the
first expected line); any other positive (a script that runs fine, or a finding elsewhere)
is false. Recall counts the failing scripts found at their line.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from dldoctor.conditions import DataError, load_toml

SPLITS = ("train", "test")


@dataclass(frozen=True)
class Label:
    file: str  # relative to the corpus folder
    fails: bool
    lines: Tuple[int, ...]  # module-level statements where workers start, in order
    source: str = ""  # real scripts: repository, path and commit

    @property
    def split(self) -> str:
        return split_of(self.file)


def split_of(file: str) -> str:
    digest = hashlib.sha256(Path(file).name.encode("utf-8")).digest()
    return "test" if digest[0] % 3 == 0 else "train"


def load_labels(corpus: Path) -> List[Label]:
    data = load_toml("labels.toml", corpus)
    if data.get("schema_version") != 1:
        raise DataError("labels: schema_version must be 1")
    out: List[Label] = []
    for i, raw in enumerate(data.get("script") or ()):
        where = f"labels: script[{i}]"
        file, fails, lines = raw.get("file"), raw.get("fails"), raw.get("lines")
        if not isinstance(file, str) or not (corpus / file).is_file():
            raise DataError(f"{where}: file {file!r} is not in the corpus")
        if not isinstance(fails, bool) or not isinstance(lines, list):
            raise DataError(f"{where}: needs fails (bool) and lines (list)")
        if fails != bool(lines) or not all(isinstance(n, int) and n > 0 for n in lines):
            raise DataError(f"{where}: a failing script lists its lines, a passing one none")
        out.append(Label(file, fails, tuple(lines), str(raw.get("source", ""))))
    return out


@dataclass(frozen=True)
class Score:
    n: int
    failing: int
    tp: int
    fp: int
    fn: int
    exact: int  # scripts whose finding lines equal the labelled lines exactly

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / self.failing if self.failing else 1.0


def verdict(label: Label, found: Sequence[int]) -> str:
    """"tp", "fp", "fn", "tn" or "fp+fn" (a failing script flagged at the wrong line)."""
    hit = bool(label.lines) and label.lines[0] in found
    if label.fails:
        return "tp" if hit else ("fp+fn" if found else "fn")
    return "fp" if found else "tn"


def score(labels: Sequence[Label], found: Dict[str, Sequence[int]]) -> Score:
    counts = {"tp": 0, "fp": 0, "fn": 0}
    exact = 0
    for label in labels:
        lines = found.get(label.file, ())
        for part in verdict(label, lines).split("+"):
            counts[part] = counts.get(part, 0) + 1
        exact += tuple(sorted(set(lines))) == tuple(sorted(label.lines))
    failing = sum(1 for x in labels if x.fails)
    return Score(len(labels), failing, counts["tp"], counts["fp"], counts["fn"], exact)
