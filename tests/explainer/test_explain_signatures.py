"""The signature data file: schema enforced at load, every condition reachable."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

from dldoctor import conditions
from dldoctor.conditions import DataError
from dldoctor.explainer import diagnose_text
from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.signatures import (
    FLAGS,
    load_signatures,
    parse_signatures,
    with_first_chars,
    without_first_chars,
)
from dldoctor.model import Condition

CORPUS = Path(__file__).resolve().parent.parent / "data" / "explain"
SLUGS = [c.slug for c in conditions.all_conditions()]


def test_packaged_signatures_load_and_cover_every_condition() -> None:
    sigs = load_signatures()
    covered = {slug for s in sigs.signatures for slug, _ in s.causes}
    assert covered == set(SLUGS)


@pytest.mark.parametrize("cond", conditions.all_conditions(), ids=lambda c: c.slug)
def test_each_condition_is_found_from_its_own_example(cond: Condition) -> None:
    ranked = [c.slug for c in diagnose_text(cond.example).shown]
    assert cond.slug in ranked


def _texts() -> List[str]:
    return [c.text for c in load_corpus(CORPUS)] + [c.example for c in conditions.all_conditions()]


def test_anchor_occurs_in_every_match() -> None:
    """The prefilter may only skip a regex when it could not match: each anchor must be
    part of every text the regex matches (checked on the corpus and the examples)."""
    texts = _texts()
    for sig in load_signatures().signatures:
        if not sig.anchors:
            continue
        for text in texts:
            for m in sig.pattern.finditer(text):
                assert any(a in m.group(0).lower() for a in sig.anchors), (sig.id, m.group(0))


def _minimal() -> Dict[str, Any]:
    return {
        "schema_version": 1,
        "signature": [
            {"id": "a", "anchor": "x", "pattern": "x(?P<lib>y)", "causes": {SLUGS[0]: 0.5}},
            {"id": "b", "anchor": "z", "pattern": "z", "causes": {s: 0.1 for s in SLUGS}},
        ],
        "evidence": [{"slug": SLUGS[0], "fact": "os", "is": ["linux"], "factor": 0.5, "reason": "r"}],
    }


def test_minimal_document_is_valid() -> None:
    sigs = parse_signatures(_minimal(), SLUGS)
    assert [s.id for s in sigs.signatures] == ["a", "b"]


def test_a_phrase_list_is_written_once_and_expanded_in_patterns_and_anchors() -> None:
    """``<<name>>`` is an alternation of the list's phrases as literals (a dot is a dot), and in
    an anchor list the phrases lowered, keeping only those that hold no other."""
    doc = _minimal()
    doc["phrases"] = {"gone": ["Was not found.", "找不到", "not found."]}
    doc["signature"][0].update(anchor=["<<gone>>"], pattern="(?P<lib>y) <<gone>>")
    sig = parse_signatures(doc, SLUGS).signatures[0]
    assert sorted(sig.anchors) == ["not found.", "找不到"]
    assert sig.pattern.search("y WAS NOT FOUND.") and sig.pattern.search("y 找不到")
    assert not sig.pattern.search("y not foundX")


def _set(path: List[Any], value: Any) -> Callable[[Dict[str, Any]], None]:
    def mutate(doc: Dict[str, Any]) -> None:
        node: Any = doc
        for step in path[:-1]:
            node = node[step]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value

    return mutate


BROKEN = {
    "schema version": (_set(["schema_version"], 2), "schema_version"),
    "bad regex": (_set(["signature", 0, "pattern"], "x(?P<lib"), "does not compile"),
    "unknown slug": (_set(["signature", 0, "causes"], {"no-such-thing": 0.5}), "unknown condition"),
    "zero weight": (_set(["signature", 0, "causes"], {SLUGS[0]: 0}), "(0, 1]"),
    "big weight": (_set(["signature", 0, "causes"], {SLUGS[0]: 1.5}), "(0, 1]"),
    "bool weight": (_set(["signature", 0, "causes"], {SLUGS[0]: True}), "number"),
    "unknown key": (_set(["signature", 0, "weight"], 1), "unknown keys"),
    "duplicate id": (_set(["signature", 1, "id"], "a"), "duplicate"),
    "upper anchor": (_set(["signature", 0, "anchor"], "X"), "lower-case"),
    "empty in list": (_set(["signature", 0, "anchor"], ["x", ""]), "lower-case"),
    "no anchor": (_set(["signature", 0, "anchor"], ""), "non-empty"),
    "no anchors": (_set(["signature", 0, "anchor"], []), "non-empty"),
    "star": (_set(["signature", 0, "pattern"], r"x(?P<lib>\S*)"), "unbounded repeat"),
    "plus": (_set(["signature", 0, "pattern"], r"x\s+y"), "unbounded repeat"),
    "open range": (_set(["signature", 0, "pattern"], r"x\d{2,}"), "unbounded repeat"),
    "in a lookahead": (_set(["signature", 0, "pattern"], r"x(?=.*y)"), "unbounded repeat"),
    "in a lookbehind group": (_set(["signature", 0, "pattern"], r"(?:a(?:b|c+))?x"), "unbounded repeat"),
    "huge repeat": (_set(["signature", 0, "pattern"], r"x[^\n]{0,5000}y"), "more than 2000"),
    "huge reach": (_set(["signature", 0, "pattern"], r"x(?:[^\n]{0,2000}y){3}"), "more than 4096"),
    "unless unknown": (_set(["signature", 0, "unless"], ["zz"]), "unknown signatures"),
    "distinguish table (now each condition's confirm)": (_set(["distinguish"], {}), "unknown top-level"),
    "bad fact": (_set(["evidence", 0, "fact"], "ram"), "fact must be"),
    "is and is_not": (_set(["evidence", 0, "is_not"], ["x"]), "exactly one"),
    "bad factor": (_set(["evidence", 0, "factor"], 0), "factor"),
    "top-level typo": (_set(["signatures"], []), "unknown top-level"),
    "unknown phrase list": (_set(["signature", 0, "pattern"], "x<<nope>>"), "unknown phrase list"),
    "unknown phrase anchor": (_set(["signature", 0, "anchor"], ["<<nope>>"]), "unknown phrase list"),
    "phrases not a list": (_set(["phrases"], {"p": "x"}), "non-empty list"),
    "blank phrase": (_set(["phrases"], {"p": ["x", " "]}), "non-empty list"),
    "phrase name": (_set(["phrases"], {"Not-A-Name": ["x"]}), "names are"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_documents_are_rejected(name: str) -> None:
    mutate, message = BROKEN[name]
    doc = copy.deepcopy(_minimal())
    mutate(doc)
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_signatures(doc, SLUGS)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        # a branch of phrases behind \b: the lookahead lists their first letters, folded
        (r"\b(?:don't have|Without|--cpu)\b", r"(?=[\-dw])(?:\b(?:don't have|Without|--cpu)\b)"),
        # a lookbehind is zero-width: the class is taken from what follows it
        (r"(?<![\w.])[Ab]x", r"(?=[ab])(?:(?<![\w.])[Ab]x)"),
        # an optional start widens the set with what may come next
        (r"(?:lib)?(?:cudnn|nvrtc)", r"(?=[cln])(?:(?:lib)?(?:cudnn|nvrtc))"),
        # one literal: left as it is (re tests it as cheaply as a class)
        (r"libcudnn\.so", r"libcudnn\.so"),
        # any character, a negated class, \w or a class of more than MAX_FIRST_CHARS: left as it is
        (r".{0,3}abc", r".{0,3}abc"),
        (r"[^x]abc|d", r"[^x]abc|d"),
        (r"\w{1,3}abc|d", r"\w{1,3}abc|d"),
        (r"[a-z]bc|1", r"[a-z]bc|1"),
        # a pattern that can match the empty text: left as it is
        (r"a?|b?", r"a?|b?"),
    ],
)
def test_first_char_lookahead(pattern: str, expected: str) -> None:
    assert with_first_chars(pattern) == expected
    assert without_first_chars(expected) == pattern


def test_first_char_lookahead_changes_no_match() -> None:
    """The lookahead the loader puts in front of a pattern only skips positions where the
    pattern could not match: every signature finds the same spans with and without it, on
    the corpus and the examples."""
    texts = _texts()
    lowered = [t.lower() for t in texts]
    changed = [s for s in load_signatures().signatures if s.pattern.pattern.startswith("(?=[")]
    assert len(changed) > 100  # the loader does apply it
    for sig in changed:
        plain = re.compile(without_first_chars(sig.pattern.pattern), FLAGS)
        # every text that holds one of its anchors (where matches are), and every eighth of the
        # others (a lookahead that hid a match there would hide an anchorless match, which
        # test_anchor_occurs_in_every_match looks for on all of them)
        for i, text in enumerate(texts):
            if i % 8 and not any(a in lowered[i] for a in sig.anchors):
                continue
            assert [m.span() for m in sig.pattern.finditer(text)] == [m.span() for m in plain.finditer(text)], sig.id
