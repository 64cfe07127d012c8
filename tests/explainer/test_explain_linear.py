"""Matching stays linear in a pasted text's size: the reach bound, and what the windowed
matcher must still find (the loader's refusals are in test_explain_signatures.py; timing
lives in bench/bench_explain_hostile.py)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.anchors import CHUNK, fold
from dldoctor.explainer.match import find_hits
from dldoctor.explainer.signatures import MAX_REACH, load_signatures, pattern_reach


@pytest.mark.parametrize(
    "pattern", [r"a.*b", r"x+", r"y{3,}", r"(?:ab){0,3000}", r"[^\n]{0,2000}[^\n]{0,2000}z{0,200}"]
)
def test_unbounded_or_too_long_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(ValueError):
        pattern_reach(pattern)


def test_reach_is_the_longest_match_and_what_its_lookarounds_read() -> None:
    assert pattern_reach(r"abc\d{0,10}") == 13
    assert pattern_reach(r"(?<!x)abc(?![^\n]{0,20}tail)") == 1 + 3 + 24
    assert max(s.reach for s in load_signatures().signatures) <= 2 * MAX_REACH


def test_a_lookahead_past_the_match_sees_the_text_that_follows() -> None:
    """The window around an anchor holds what a "not followed by" reads: terabytes asked of
    the allocator are not a small page file, even though the match ends before the number."""
    text = "x\n" * 500 + "DefaultCPUAllocator: not enough memory: you tried to allocate 3298534883328 bytes.\n"
    assert "cpu-allocator-not-enough-memory" not in find_hits(text, load_signatures())
    assert "cpu-allocator-not-enough-memory" in find_hits(text.replace("3298534883328", "58982400"), load_signatures())


@pytest.mark.parametrize("text", ["İstanbul", "ﬁ ß İİİ x", "a" * 10])
def test_fold_keeps_one_character_per_character(text: str) -> None:
    low = fold(text)
    assert len(low) == len(text)
    assert all(a == b.lower() or len(b.lower()) != 1 for a, b in zip(low, text))


def test_widening_characters_do_not_shift_hits() -> None:
    """A line after many 'İ' (lowered to two characters each) is still found, at its line."""
    err = "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"
    plain = find_hits("x\n" + err, load_signatures())
    noisy = find_hits("İ" * 5000 + "\n" + err, load_signatures())
    assert plain and set(plain) == set(noisy)
    assert all(h.line == 2 for hits in noisy.values() for h in hits)


def test_a_match_across_a_chunk_border_is_found() -> None:
    err = "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"
    for pad in (CHUNK - 20, CHUNK - 5, CHUNK + 3):
        text = "x" * pad + err
        assert "missing-shared-library" in [c.slug for c in diagnose_text(text).shown]


def test_dense_anchors_cost_bounded_memory() -> None:
    """1 MiB of one anchor repeated (65,536 occurrences; tracemalloc slows every allocation, so
    not more): windows merge instead of piling up, and memory stays a small multiple of the text."""
    from dldoctor.explainer.anchors import anchor_windows

    text = "dll load failed " * (1024 * 1024 // 16)
    assert len(anchor_windows(text, {"dll load failed": 200})["dll load failed"]) == 2  # one window
    tracemalloc.start()
    find_hits(text, load_signatures())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 * len(text)


def test_a_paste_dense_in_one_signatures_anchors_is_read_at_its_start_and_end() -> None:
    """Past SCAN_BUDGET characters of one signature's windows its regex reads their first and
    last halves: the error at either end of a huge log is found, one buried in its middle is
    not (the price of bounded time), and a text within the budget is read whole."""
    from dldoctor.explainer.match import SCAN_BUDGET
    from dldoctor.explainer.signatures import SignatureSet

    one = SignatureSet(tuple(s for s in load_signatures().signatures if s.id == "nightly-load-failure"), ())
    err = "pip install --pre torch (nightly)\nImportError: DLL load failed while importing _C\n"
    line = "nightly build log line\n"
    filler = line * (SCAN_BUDGET // len(line) + 1)
    assert "nightly-load-failure" in find_hits(filler + err, one)
    assert "nightly-load-failure" in find_hits(err + filler, one)
    assert "nightly-load-failure" not in find_hits(filler + err + filler, one)
    half = line * (SCAN_BUDGET // len(line) // 4)
    assert "nightly-load-failure" in find_hits(half + err + half, one)


def test_anchors_searched_in_shorter_anchors_windows_find_the_same_hits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The windows of "dll load failed" derived from those of "dll" hold every match that a
    search of the whole text finds (SPARSE = -1 turns the derivation off)."""
    from dldoctor.explainer import anchors, match
    from dldoctor.explainer.corpus import load_corpus
    from dldoctor.explainer.signatures import load_signatures

    corpus = Path(__file__).resolve().parent.parent / "data" / "explain"
    texts = [c.text for c in load_corpus(corpus, ("train",))]
    texts.append("x.dll\n" * 50 + "ImportError: DLL load failed while importing _C: "
                 "The specified module could not be found.")
    sigs = load_signatures()
    derived = [match.find_hits(t, sigs) for t in texts]
    monkeypatch.setattr(anchors, "SPARSE", -1)
    assert [match.find_hits(t, sigs) for t in texts] == derived


def test_the_chunk_vocabulary_rules_out_no_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking the chunk's words first (one question per anchor for the whole chunk) finds the
    same hits as asking each block alone: it only rules out anchors no block can hold."""
    from dldoctor.explainer import anchors, match
    from dldoctor.explainer.corpus import load_corpus
    from dldoctor.explainer.signatures import load_signatures

    corpus = Path(__file__).resolve().parent.parent / "data" / "explain"
    texts = [*[c.text for c in load_corpus(corpus, ("train",))][::7], _log(3_000)]
    sigs = load_signatures()
    with_chunk = [match.find_hits(t, sigs) for t in texts]
    assert any(with_chunk) and len(_log(3_000)) > 3 * anchors.BLOCK  # several blocks in one chunk
    monkeypatch.setattr(anchors.Prepared, "chunk_vocabulary", lambda self, c0: None)
    assert [match.find_hits(t, sigs) for t in texts] == with_chunk


def _log(lines: int) -> str:
    """A long log: corpus reports among repeated progress lines, as CI logs look."""
    from dldoctor.explainer.corpus import load_corpus

    corpus = Path(__file__).resolve().parent.parent / "data" / "explain"
    cases = [c.text.strip("\n") for c in load_corpus(corpus, ("train",))][:40]
    out: List[str] = []
    i = 0
    while len(out) < lines:
        out.extend(cases[i % len(cases)].split("\n") if i % 250 == 0 else
                   [f"Epoch {i % 100}/100: step {i} loss={i % 7}.{i % 97} /venv/lib/python3.11/site-packages/x.py"])
        i += 1
    return "\n".join(out[:lines]) + "\n"


def test_matching_work_grows_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice the log costs about twice the work (at most 2.5x), counted, not timed: characters
    lowered, block vocabularies built, and characters the regexes run over (the anchor
    windows). Both logs span several chunks, so both lower each chunk per search."""
    from dldoctor.explainer import anchors, match

    counts: Dict[str, int] = {"folded": 0, "windows": 0}
    real_fold, real_spans = anchors.fold, match._spans

    def fold(chunk: str) -> str:
        counts["folded"] += len(chunk)
        return real_fold(chunk)

    def spans(windows: object) -> Iterator[Tuple[int, int]]:
        for lo, hi in real_spans(windows):  # type: ignore[arg-type]
            counts["windows"] += hi - lo
            yield lo, hi

    monkeypatch.setattr(anchors, "fold", fold)
    monkeypatch.setattr(match, "_spans", spans)
    work = []
    for lines in (20_000, 40_000):
        counts.update(folded=0, windows=0)
        text = _log(lines)
        prep = anchors.Prepared(text)
        match.find_hits(text, load_signatures(), prep)
        work.append((counts["folded"], counts["windows"], len(prep._vocab)))
    assert all(small > 0 and big <= 2.5 * small for small, big in zip(*work))


def test_windows_hold_every_match_a_whole_text_scan_finds() -> None:
    """The anchor windows (dense anchors' half-reach jumps, lone anchors' tighter windows, the
    shorter anchors' windows lent to longer ones, the block vocabularies) and the literals
    asked of them before a regex runs lose nothing: each signature's first matches there are
    its first matches in the whole text, on reports and on a long log where "python" and
    "torch" occur on every line."""
    from dldoctor.explainer import anchors, match
    from dldoctor.explainer.corpus import load_corpus

    corpus = Path(__file__).resolve().parent.parent / "data" / "explain"
    texts = [*[c.text for c in load_corpus(corpus, ("train",))][::5], _log(2_000)]
    sigs = load_signatures()
    plan = match._plan_of(sigs.signatures)
    compared = 0
    for text in texts:
        prep = anchors.Prepared(text)
        windows = anchors.anchor_windows(text, plan.reach, prep, plan.anchors)
        for sig in sigs.signatures:
            if sig.distinct:
                continue
            whole = [m.span() for m in sig.pattern.finditer(text)][: match.MAX_HITS_PER_SIGNATURE]
            found = [m.span() for m in match._matches(sig, text, windows, prep)]
            assert found == whole, (sig.id, text[:80])
            compared += bool(whole)
    assert compared > 1000


def _words(count: int, seed: int) -> str:
    """``count`` different words of letters: text whose vocabulary is as long as itself."""
    import random
    import string

    rng = random.Random(seed)
    return " ".join("".join(rng.choices(string.ascii_lowercase, k=9)) for _ in range(count))


def test_a_short_last_block_keeps_its_words_and_a_block_without_words_is_still_searched() -> None:
    """A text's short, wordy last block has a vocabulary (it used to lose the whole chunk its
    pruning), and a block of all-different words, which has none, is searched for every
    anchor while the other blocks keep theirs: its error is found."""
    from dldoctor.explainer import anchors

    err = "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n"
    log = _log(3_000)
    tail = _words(60, seed=1)  # the whole last block
    prep = anchors.Prepared(log[: len(log) // anchors.BLOCK * anchors.BLOCK] + tail)
    last = (len(prep.text) - 1) // anchors.BLOCK * anchors.BLOCK
    assert prep.vocabulary(last) is not None and prep.chunk_vocabulary(0) is not None
    noise = _words(anchors.BLOCK // 10, seed=2)
    text = log + noise + " zqxjv was here\n" + err + noise + "\n"
    prep = anchors.Prepared(text)
    blocks = range(0, len(text), anchors.BLOCK)
    assert any(prep.vocabulary(b) is None for b in blocks) and prep.chunk_vocabulary(0) is not None
    assert b"zqxjv" not in (prep.chunk_vocabulary(0) or b"")  # only the wordless block holds it
    assert prep.chunk_may_hold("zqxjv", 0)
    assert len(anchors.anchor_windows(text, {"zqxjv": 10}, prep)["zqxjv"]) == 2
    assert "missing-shared-library" in [c.slug for c in diagnose_text(text).shown]


@pytest.mark.parametrize(
    "pattern, required",
    [
        (r"abc\d{0,3}defg", ((("defg",), ("abc",)),)),
        (r"(?:xyz)?abc", ((("abc",),),)),  # an optional part requires nothing
        (r"foo(?:bar|bazz)", ((("fooba",),),)),  # re's parser moves the alternatives' "ba" out
        (r"foo(?:lish|tball)", ((("lish", "tball"), ("foo",)),)),  # alternatives: one of their literals
        (r"aaa|bbb", ((("aaa",),), (("bbb",),))),  # one alternative at a time
        (r"aaa|\d{1,9}", ()),  # an alternative that requires nothing: nothing is ruled out
        (r"ABC\bde", ((("abcde",),),)),  # lowered; a zero-width \b leaves its neighbours adjacent
        (r"Proc[eé]dure", ((("dure",), ("proc",)),)),  # a class ends a literal
        (r"(?=[ab])(?:alpha\d|beta\d)", ((("alpha",),), (("beta",),))),  # the loader's lookahead
    ],
)
def test_the_literals_every_match_contains(pattern: str, required: object) -> None:
    import re

    from dldoctor.explainer.literals import SRE, requirements

    assert requirements(SRE.parse(pattern, re.IGNORECASE)) == required


def test_fold_finds_what_a_case_insensitive_pattern_finds() -> None:
    """``re`` reads "ı" as "i" and "ſ" as "s": the lowered text does too, so neither an anchor
    nor a required literal misses a match written with them."""
    import re

    text = "ImportError: DLL load faıled whıle importing _C: The ſpecified module could not be found."
    assert re.search("dll load failed", text, re.I) and fold(text) == fold(text.replace("ı", "i").replace("ſ", "s"))
    assert find_hits(text, load_signatures()) and set(find_hits(text, load_signatures())) == set(
        find_hits(text.replace("ı", "i").replace("ſ", "s"), load_signatures()))
