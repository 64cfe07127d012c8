"""Where a text's anchors occur: merged windows around each occurrence, found in linear time.

A regex only ever runs on these windows (:mod:`dldoctor.explainer.match`), so this search is
what makes matching linear in the text's size: anchors are found with C-level substring
search on the text lowered one chunk at a time (no lowered copy of the whole text; a
character whose lower case is longer, like "İ", is folded to one character so positions stay
aligned); where an anchor is dense, the search jumps half a reach ahead, since the window
already covers what it skips; a block's vocabulary of words rules out the anchors no
occurrence of which can start in it.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Dict, Optional, Tuple

CHUNK = 1 << 20  # chars lowered at a time for the anchor search
MARGIN = 16  # chars past each window's edges, for \b and lookarounds


def fold(chunk: str) -> str:
    """``chunk.lower()`` with exactly one character per character of ``chunk``, in which a
    lower-case ASCII literal occurs wherever a case-insensitive ``re`` pattern finds it.

    ``str.lower`` lengthens a few characters ("İ" -> "i" + combining dot), which would shift
    every later position; those become the first character of their lower case. And ``re``
    takes "ı" for "i" and "ſ" for "s" where ``str.lower`` keeps them: they become those."""
    low = chunk.lower()
    if len(low) != len(chunk):
        for ch in {c for c in set(chunk) if len(c.lower()) != 1}:
            chunk = chunk.replace(ch, ch.lower()[:1])
        low = chunk.lower()
        if len(low) != len(chunk):
            low = "".join(c.lower()[:1] or c for c in chunk)
    if not low.isascii() and ("ı" in low or "ſ" in low):
        low = low.replace("ı", "i").replace("ſ", "s")
    return low


def _add(spans: array[int], lo: int, hi: int) -> None:
    """Append window [lo, hi) to flat (start, end, start, end, ...) windows, merging."""
    if spans and lo <= spans[-1]:
        spans[-1] = max(spans[-1], hi)
    else:
        spans.extend((lo, hi))


#: a base anchor with at most this many windows lends them to the anchors that contain it
SPARSE = 64
OVERLAP = 4096  # chars folded past each chunk's end: more than any anchor or name is long
BLOCK = 1 << 15  # chars of one vocabulary (CHUNK is a multiple of it)
WORD_OVERLAP = 256  # chars past a block's end its vocabulary covers; longer anchors are not ruled out
_DIGITS = bytes.maketrans(b"123456789", b"000000000")


@lru_cache(maxsize=4096)
def _pieces(anchor: str) -> Optional[Tuple[bytes, ...]]:
    """What the vocabulary of a block must hold where ``anchor`` occurs: its blank-free runs
    in UTF-8, digits read as 0, each with a newline on a side where a blank bounds it (in a
    vocabulary every word has a newline on both sides: "no error" needs a word that ends in
    "no" and one that starts with "error", not only both strings somewhere); None for an
    anchor too long for a vocabulary to rule out."""
    if len(anchor) > WORD_OVERLAP:
        return None
    raw = anchor.encode("utf-8", "surrogatepass").translate(_DIGITS)
    runs = raw.split()
    last = len(runs) - 1
    return tuple((b"\n" if i or raw[:1].isspace() else b"") + run + (b"\n" if i < last or raw[-1:].isspace() else b"")
                 for i, run in enumerate(runs))


def _may_contain(vocab: Optional[bytes], pieces: Optional[Tuple[bytes, ...]]) -> bool:
    """False only when ``vocab`` (a block's or a chunk's words; None: unknown) rules out every
    occurrence of the anchor whose :func:`_pieces` these are."""
    return vocab is None or not pieces or all(p in vocab for p in pieces)


class Prepared:
    """One text, with what every anchor search over it shares: the lowered chunk of a text
    that fits one chunk (so the signatures, the fallbacks and the release table lower it
    once), and the vocabulary of each block of it.

    Each anchor costs a C-level pass over the text, and most of hundreds of anchors occur
    nowhere in a given log, or in one place of it. The vocabulary of a block (its distinct
    blank-separated words, digits read as 0: a log repeats its words) is a few percent of the
    block, so asking it first whether an anchor can occur there skips the passes over blocks
    that cannot hold it. It only ever rules an anchor out, never in: an occurrence's blank-free
    runs lie inside words of the block."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._low: Tuple[int, str] = (-1, "")
        self._vocab: Dict[int, Optional[bytes]] = {}
        self._chunk_vocab: Dict[int, Tuple[Optional[bytes], bool]] = {}

    def folded(self, c0: int) -> str:
        """The text from ``c0`` (a chunk's start) to CHUNK + OVERLAP characters further,
        lowered by :func:`fold`; the last chunk lowered is kept, so a text of one chunk is
        lowered once."""
        if self._low[0] != c0:
            self._low = (c0, fold(self.text[c0 : c0 + CHUNK + OVERLAP]))
        return self._low[1]

    def cached(self, lo: int, hi: int) -> Optional[Tuple[str, int]]:
        """(the chunk lowered last, where in the text it starts) when it holds text[lo:hi]."""
        c0, low = self._low
        return (low, c0) if 0 <= c0 <= lo and hi <= c0 + len(low) else None

    def lowered(self, lo: int, hi: int) -> Tuple[str, int]:
        """(a lowered text holding text[lo:hi], the position in the text where it starts): the
        chunk lowered last when it holds the span (no fold per window of a short text), else
        the span folded on its own (never a whole chunk again for one window)."""
        return self.cached(lo, hi) or (fold(self.text[lo:hi]), lo)

    def vocabulary(self, b0: int) -> Optional[bytes]:
        """The distinct words of the block at ``b0`` (and WORD_OVERLAP characters past it), or
        None when they are not much shorter than the block (random bytes): then asking them
        would cost what it saves."""
        if b0 not in self._vocab:
            c0 = b0 - b0 % CHUNK
            low = self.folded(c0)[b0 - c0 : b0 - c0 + BLOCK + WORD_OVERLAP]
            raw = low.encode("utf-8", "surrogatepass").translate(_DIGITS)
            words = b"\n" + b"\n".join(set(raw.split())) + b"\n"
            # (against a whole block: a text's short last block is no reason to lose its words)
            self._vocab[b0] = words if len(words) * 4 < max(len(raw), BLOCK) else None
        return self._vocab[b0]

    def chunk_vocabulary(self, c0: int) -> Optional[bytes]:
        """The words of the blocks of the chunk at ``c0`` that have a vocabulary, together (None
        when none has): an anchor none of those blocks can hold is ruled out for all of them
        with one question instead of one per block, and most anchors occur nowhere in a log.
        A block without a vocabulary is searched for every anchor whatever this says, so one
        such block (random bytes) costs its own search, not the pruning of the whole chunk."""
        if c0 not in self._chunk_vocab:
            blocks = range(c0, min(len(self.text), c0 + CHUNK), BLOCK)
            known = [v for v in map(self.vocabulary, blocks) if v is not None]
            words = b"\n" + b"\n".join(set(b"".join(known).split())) + b"\n" if known else None
            self._chunk_vocab[c0] = (words, len(known) == len(blocks))
        return self._chunk_vocab[c0][0]

    def chunk_may_hold(self, anchor: str, c0: int) -> bool:
        """False only when no block of the chunk at ``c0`` can hold ``anchor``."""
        words = self.chunk_vocabulary(c0)
        return not self._chunk_vocab.get(c0, (None, False))[1] or _may_contain(words, _pieces(anchor))


AnchorPlan = Tuple[Dict[str, int], Dict[str, Tuple[str, ...]]]


@lru_cache(maxsize=16)
def plan_anchors(reach: Tuple[Tuple[str, int], ...]) -> AnchorPlan:
    """(bases: anchors that hold no other anchor, each with its width; anchor -> the bases it
    holds, for the others), worked out once per set of anchors, not once per text."""
    bases = {a: max(r, len(a)) for a, r in reach if not any(b != a and b in a for b, _ in reach)}
    return bases, {a: tuple(b for b in bases if b in a) for a, _ in reach if a not in bases}


def anchor_windows(
    text: str, reach: Dict[str, int], prep: Optional[Prepared] = None, plan: Optional[AnchorPlan] = None,
) -> Dict[str, array[int]]:
    """anchor -> merged windows ``[start, end)`` holding every match that contains one of its
    occurrences, for a pattern that matches at most ``reach[anchor]`` characters.

    An anchor that contains another one ("dll load failed" holds "dll") is searched only
    inside the windows of the shorter one when those are few: every occurrence of the longer
    holds an occurrence of the shorter, so it lies in one of its windows. Each anchor costs a
    pass over the text otherwise, and there are hundreds. ``plan``: :func:`plan_anchors` of
    ``reach``, when the caller keeps it (the signatures' thousand anchors: building and hashing
    their tuple for the cache would cost each text about 80 us)."""
    prep = prep if prep is not None and prep.text is text else Prepared(text)
    bases, holds = plan if plan is not None else plan_anchors(tuple(reach.items()))
    out = _scan(prep, bases)
    longer: Dict[str, int] = {}
    for anchor, base_list in holds.items():
        width = reach[anchor]
        base = base_list[0] if len(base_list) == 1 else min(base_list, key=lambda b: len(out[b]))
        if not out[base]:  # the shorter anchor does not occur: neither does this one
            out[anchor] = array("q")
            continue
        if len(out[base]) > 2 * SPARSE:
            longer[anchor] = width
            continue
        spans = array("q")
        for lo, hi in zip(out[base][::2], out[base][1::2]):
            lo, hi = max(0, lo - len(anchor)), min(len(text), hi + len(anchor))
            low, off = prep.lowered(lo, hi)
            at = low.find(anchor, lo - off, hi - off)
            while at >= 0:
                hit = off + at
                _add(spans, max(0, hit + len(anchor) - width - MARGIN), min(len(text), hit + width + MARGIN))
                at = low.find(anchor, at + 1, hi - off)
        out[anchor] = spans
    if longer:
        out.update(_scan(prep, longer))
    return out


def _scan(prep: Prepared, reach: Dict[str, int]) -> Dict[str, array[int]]:
    """anchor -> windows, one C-level search per anchor over the text lowered a chunk at a
    time, block by block, skipping the blocks whose vocabulary rules the anchor out."""
    text = prep.text
    longest = max((len(a) for a in reach), default=1)
    out = {a: array("q") for a in reach}
    plan = [(a, w, max(1, w // 2), _pieces(a), out[a]) for a, w in reach.items()]
    resume = dict.fromkeys(reach, 0)  # where each anchor's search goes on
    n = len(text)
    for c0 in range(0, n, CHUNK):
        c1 = min(n, c0 + CHUNK)
        low = prep.folded(c0) if longest <= OVERLAP + 1 else fold(text[c0 : c1 + longest - 1])
        words = prep.chunk_vocabulary(c0)
        live = [row for row in plan if _may_contain(words, row[3])]
        for b0 in range(c0, c1, BLOCK):
            b1 = min(c1, b0 + BLOCK)
            vocab = prep.vocabulary(b0)
            for anchor, width, jump, pieces, spans in live if vocab is not None else plan:
                pos = resume[anchor]
                if pos >= b1:
                    continue
                if vocab is not None and pieces and (pieces[0] not in vocab or not all(p in vocab for p in pieces[1:])):
                    continue  # no occurrence starts in this block
                end = b1 - c0 + len(anchor) - 1  # occurrences that start before b1
                at = low.find(anchor, max(pos, b0) - c0, end)
                while at >= 0:
                    hit = c0 + at
                    nxt = low.find(anchor, at + 1, end)
                    # dense (the next copy within half a reach): the copies in (hit, hit + jump)
                    # are skipped and the window covers their matches too, one search per half
                    # reach instead of one per copy; else this copy's window alone
                    dense = 0 <= nxt < at + jump
                    _add(spans, max(0, hit + len(anchor) - width - MARGIN),
                         min(n, hit + (jump if dense else 0) + width + MARGIN))
                    pos = hit + (jump if dense else 1)
                    if dense:
                        if pos >= b1:
                            break
                        nxt = low.find(anchor, pos - c0, end)
                    at = nxt
                resume[anchor] = pos
    return out
