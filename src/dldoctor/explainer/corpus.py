"""The evaluation corpus: real error texts from public threads, with their confirmed cause.

Each case is one small TOML file (``source``, ``platform``, ``cause``, ``text``, an optional
``quote`` from the thread that confirms the cause, and an optional ``[facts]`` table for
machine facts the thread confirmed, e.g. the torch version).

The corpus has two splits, one folder each. ``test/`` is frozen: a case goes there when a
hash of its source *thread* says so (:func:`split_for`), never by judgement, and its misses
are not read while writing signatures, so its accuracy estimates accuracy on reports not yet
seen. ``train/`` holds the rest, and every case collected before the split was frozen (those
were all read while writing signatures). One thread never feeds both splits.

A test split is used up once its numbers have steered the rules (its aggregate was checked
again and again while tuning): its cases then join ``train/`` and a new test split is frozen
from cases collected afterwards, with a new :data:`GENERATION` salting the hash, so that the
new split is no function of the old one. Generation 1 (the first 166 held-out cases) and
generation 2 (38), generation 3 (55), generation 4 (73), generation 5 (72), generation 6 (115),
generation 7 (120), generation 8 (117), generation 9 (52), generation 10 (119), generation 11
(107), generation 12 (136), generation 13 (162), generation 14 (181), generation 15 (157),
generation 16 (134), generation 17 (129), generation 18 (121), generation 19 (41),
generation 20 (16), generation 21 (48), generation 22 (15), generation 23 (23), generation 24
(13), generation 25 (47), generation 26 (43), generation 27 (48), generation 28 (51),
generation 29 (51), generation 30 (60), generation 31 (43), generation 32 (7), generation 33
(17), generation 34 (19), generation 35 (13), generation 36 (36) and generation 37 (33; each
measured once in the session that collected it, or the next) were used up and joined train;
generation 38 is being collected.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from dldoctor import conditions
from dldoctor.conditions import DataError, load_toml
from dldoctor.explainer import diagnose_text
from dldoctor.explainer.signatures import SignatureSet
from dldoctor.explainer.weigh import Facts, facts_from_mapping

SPLITS = ("train", "test")
TEST_MODULUS = 2  # of newly collected threads, 1 in 2 goes to the test split
GENERATION = 38  # bumped when a test split is used up and joins train (see the module docstring)
_KEYS = {"source", "platform", "cause", "text", "quote", "facts"}
#: [facts] keys that explain weighs (the fields of Facts) ...
FACT_KEYS = frozenset(f.name for f in fields(Facts))
#: ... and keys a thread confirmed that explain does not weigh (kept for the reader)
NOTE_KEYS = frozenset({"cuda", "numpy", "onnxruntime", "paddlepaddle", "tensorflow"})


def thread_of(url: str) -> str:
    """The thread a source URL points into: no fragment (``#issuecomment-1``), query or
    trailing slash, lower-case, so that two comments of one thread are one thread."""
    base = url.split("#", 1)[0].split("?", 1)[0].rstrip("/").lower()
    return base.replace("http://", "https://", 1).replace("://www.", "://", 1)


def split_for(url: str) -> str:
    """The split a newly collected case belongs to, decided by its thread alone."""
    salted = thread_of(url) if GENERATION == 1 else f"generation {GENERATION}: {thread_of(url)}"
    digest = hashlib.sha256(salted.encode("utf-8")).hexdigest()
    return "test" if int(digest[:12], 16) % TEST_MODULUS == 0 else "train"


@dataclass(frozen=True)
class Case:
    """One real error text and the cause its thread confirmed."""

    name: str
    source: str
    platform: str
    cause: str
    text: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    split: str = "train"
    quote: str = ""

    @property
    def held_out(self) -> bool:
        return self.split == "test"

    def machine_facts(self) -> Facts:
        """What a snapshot of the reporter's machine would have said: its OS, plus facts
        the thread confirmed."""
        return facts_from_mapping({"os": self.platform, **dict(self.facts)})


def read_case(path: Path) -> Case:
    """Parse and validate one case file."""
    try:
        raw = load_toml(path.name, path.parent)
    except (OSError, ValueError) as exc:  # TOMLDecodeError is a ValueError
        raise DataError(f"{path.name}: {exc}") from None
    unknown = set(raw) - _KEYS
    if unknown:
        raise DataError(f"{path.name}: unknown keys {sorted(unknown)}")
    for key in ("source", "platform", "cause", "text"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise DataError(f"{path.name}: {key} must be a non-empty string")
    if not raw["source"].startswith("https://"):
        raise DataError(f"{path.name}: source must be an https URL")
    if raw["platform"] not in conditions.PLATFORMS:
        raise DataError(f"{path.name}: platform must be one of {conditions.PLATFORMS}")
    if not conditions.exists(raw["cause"]):
        raise DataError(f"{path.name}: unknown cause {raw['cause']!r}")
    facts = raw.get("facts", {})
    if not isinstance(facts, dict):
        raise DataError(f"{path.name}: [facts] must be a table")
    unknown_facts = set(facts) - FACT_KEYS - NOTE_KEYS
    if unknown_facts:  # a misspelt fact ("torch" for torch_version) would be silently ignored
        raise DataError(f"{path.name}: unknown [facts] keys {sorted(unknown_facts)}; facts explain weighs: "
                        f"{sorted(FACT_KEYS)}; kept as notes only: {sorted(NOTE_KEYS)}")
    if not isinstance(raw.get("quote", ""), str):
        raise DataError(f"{path.name}: quote must be a string")
    split = path.parent.name if path.parent.name in SPLITS else "train"
    return Case(path.stem, raw["source"], raw["platform"], raw["cause"], raw["text"], facts, split,
                raw.get("quote", ""))


def load_corpus(folder: Path, splits: Sequence[str] = SPLITS) -> Tuple[Case, ...]:
    """Every case of the given splits (``folder/<split>/*.toml``), sorted by split and name."""
    return tuple(read_case(p) for split in splits for p in sorted((folder / split).glob("*.toml")))


@dataclass(frozen=True)
class Outcome:
    """How explain ranked one case."""

    case: Case
    ranked: Tuple[str, ...]  # slugs, best first

    @property
    def rank(self) -> Optional[int]:
        """1-based rank of the expected cause, None when not a candidate at all."""
        return self.ranked.index(self.case.cause) + 1 if self.case.cause in self.ranked else None

    @property
    def top1(self) -> bool:
        return self.rank == 1

    @property
    def top3(self) -> bool:
        return self.rank is not None and self.rank <= 3


def evaluate(
    cases: Sequence[Case], use_facts: bool = True, sigs: Optional[SignatureSet] = None, words: bool = True,
) -> Tuple[Outcome, ...]:
    """Run explain on every case; with ``use_facts`` as if on the reporter's machine.

    ``words=False`` ranks with the rules alone: word evidence is built from the train split,
    so on a train case it would find the case itself (an in-sample answer); the rules are
    measured on train without it, and the whole of explain on the test split."""
    out: List[Outcome] = []
    for case in cases:
        facts = case.machine_facts() if use_facts else None
        report = diagnose_text(case.text, facts=facts, sigs=sigs, words=words)
        out.append(Outcome(case, tuple(c.slug for c in report.shown)))
    return tuple(out)


def accuracy(outcomes: Sequence[Outcome]) -> Tuple[float, float]:
    """(top-1, top-3) fractions; (0, 0) for no outcomes."""
    if not outcomes:
        return 0.0, 0.0
    n = len(outcomes)
    return sum(o.top1 for o in outcomes) / n, sum(o.top3 for o in outcomes) / n


def by_family(outcomes: Sequence[Outcome]) -> Dict[str, List[Outcome]]:
    groups: Dict[str, List[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.case.cause, []).append(o)
    return dict(sorted(groups.items()))
