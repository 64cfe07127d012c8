"""Text -> ranked candidate causes, from signatures alone (pure, no machine facts).

Users paste whole CI logs, and a hostile paste can be 32 MiB of one line. Matching is linear
in the text's size, whatever it holds:

* every signature declares lower-case literal anchors that each of its matches contains,
  and the loader rejects any pattern that can match more than ``reach`` characters
  (:mod:`dldoctor.explainer.signatures`: every repeat bounded). So a regex only ever runs on
  windows of ``reach`` characters around anchor occurrences, never on the whole text;
* anchors are found with C-level substring search on the text lowered one chunk at a time
  (no lowered copy of the whole text; a character whose lower case is longer, like "İ",
  is folded to one character so positions stay aligned); where an anchor is dense, the
  search jumps half a reach ahead, since the window already covers what it skips;
* line numbers and the lines shown are computed once per hit from bounded neighbourhoods.
"""

from __future__ import annotations

import heapq
import re
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from dldoctor.explainer.signatures import Signature, SignatureSet

MAX_HITS_PER_SIGNATURE = 3
MAX_LINE_CHARS = 400
CONTEXT = 200  # chars of a long line shown before a match
CHUNK = 1 << 20  # chars lowered at a time for the anchor search
MARGIN = 16  # chars past each window's edges, for \b and lookarounds


@dataclass(frozen=True)
class Hit:
    """One place where one signature matched: where, what, and what it names."""

    signature: str
    line: int  # 1-based line of the match start
    text: str  # the matched line(s), unredacted; redact before showing
    subject: Tuple[Tuple[str, str], ...]  # named groups that matched, e.g. ("lib", "c10.dll")


@dataclass(frozen=True)
class Candidate:
    """One possible cause of the pasted error, with the hits that point at it."""

    slug: str
    confidence: float
    hits: Tuple[Hit, ...]
    evidence: Tuple[Tuple[str, str], ...] = ()


def fold(chunk: str) -> str:
    """``chunk.lower()`` with exactly one character per character of ``chunk``.

    ``str.lower`` lengthens a few characters ("İ" -> "i" + combining dot), which would shift
    every later position; those become the first character of their lower case."""
    low = chunk.lower()
    if len(low) == len(chunk):
        return low
    for ch in {c for c in set(chunk) if len(c.lower()) != 1}:
        chunk = chunk.replace(ch, ch.lower()[:1])
    low = chunk.lower()
    return low if len(low) == len(chunk) else "".join(c.lower()[:1] or c for c in chunk)


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
    in UTF-8, digits read as 0; None for an anchor too long for a vocabulary to rule out."""
    if len(anchor) > WORD_OVERLAP:
        return None
    return tuple(anchor.encode("utf-8", "surrogatepass").translate(_DIGITS).split())


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
        self._chunk_vocab: Dict[int, Optional[bytes]] = {}

    def folded(self, c0: int) -> str:
        """The text from ``c0`` (a chunk's start) to CHUNK + OVERLAP characters further,
        lowered by :func:`fold`; the last chunk lowered is kept, so a text of one chunk is
        lowered once."""
        if self._low[0] != c0:
            self._low = (c0, fold(self.text[c0 : c0 + CHUNK + OVERLAP]))
        return self._low[1]

    def vocabulary(self, b0: int) -> Optional[bytes]:
        """The distinct words of the block at ``b0`` (and WORD_OVERLAP characters past it), or
        None when they are not much shorter than the block (random bytes): then asking them
        would cost what it saves."""
        if b0 not in self._vocab:
            c0 = b0 - b0 % CHUNK
            low = self.folded(c0)[b0 - c0 : b0 - c0 + BLOCK + WORD_OVERLAP]
            raw = low.encode("utf-8", "surrogatepass").translate(_DIGITS)
            words = b"\n".join(set(raw.split()))
            self._vocab[b0] = words if len(words) * 4 < len(raw) else None
        return self._vocab[b0]

    def chunk_vocabulary(self, c0: int) -> Optional[bytes]:
        """The words of every block of the chunk at ``c0`` together (None when a block has no
        vocabulary): an anchor none of whose blocks can hold is ruled out with one question
        for the chunk instead of one per block, and most anchors occur nowhere in a log."""
        if c0 not in self._chunk_vocab:
            blocks = range(c0, min(len(self.text), c0 + CHUNK), BLOCK)
            known = [v for v in map(self.vocabulary, blocks) if v is not None]
            whole = len(known) == len(blocks)
            self._chunk_vocab[c0] = b"\n".join(set(b"\n".join(known).split(b"\n"))) if whole else None
        return self._chunk_vocab[c0]

    def may_hold(self, anchor: str, b0: int) -> bool:
        """False only when no occurrence of ``anchor`` starts in the block at ``b0``."""
        return _may_contain(self.vocabulary(b0), _pieces(anchor))

    def chunk_may_hold(self, anchor: str, c0: int) -> bool:
        """False only when no block of the chunk at ``c0`` can hold ``anchor``."""
        return _may_contain(self.chunk_vocabulary(c0), _pieces(anchor))


@lru_cache(maxsize=16)
def _plan(reach: Tuple[Tuple[str, int], ...]) -> Tuple[Dict[str, int], Dict[str, Tuple[str, ...]]]:
    """(bases: anchors that hold no other anchor, each with its width; anchor -> the bases it
    holds, for the others), worked out once per set of anchors, not once per text."""
    bases = {a: max(r, len(a)) for a, r in reach if not any(b != a and b in a for b, _ in reach)}
    return bases, {a: tuple(b for b in bases if b in a) for a, _ in reach if a not in bases}


def anchor_windows(text: str, reach: Dict[str, int], prep: Optional[Prepared] = None) -> Dict[str, array[int]]:
    """anchor -> merged windows ``[start, end)`` holding every match that contains one of its
    occurrences, for a pattern that matches at most ``reach[anchor]`` characters.

    An anchor that contains another one ("dll load failed" holds "dll") is searched only
    inside the windows of the shorter one when those are few: every occurrence of the longer
    holds an occurrence of the shorter, so it lies in one of its windows. Each anchor costs a
    pass over the text otherwise, and there are hundreds."""
    prep = prep if prep is not None and prep.text is text else Prepared(text)
    bases, holds = _plan(tuple(reach.items()))
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
            low = fold(text[lo:hi])
            at = low.find(anchor)
            while at >= 0:
                hit = lo + at
                _add(spans, max(0, hit + len(anchor) - width - MARGIN), min(len(text), hit + width + MARGIN))
                at = low.find(anchor, at + 1)
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
            for anchor, width, jump, pieces, spans in live:
                pos = resume[anchor]
                if pos >= b1:
                    continue
                if vocab is not None and pieces and (pieces[0] not in vocab or not all(p in vocab for p in pieces[1:])):
                    continue  # no occurrence starts in this block
                end = b1 - c0 + len(anchor) - 1  # occurrences that start before b1
                at = low.find(anchor, max(pos, b0) - c0, end)
                while at >= 0:
                    hit = c0 + at
                    # occurrences in (hit, hit + jump) are skipped: the window covers them too
                    _add(spans, max(0, hit + len(anchor) - width - MARGIN), min(n, hit + jump + width + MARGIN))
                    pos = hit + jump
                    if pos >= b1:
                        break
                    at = low.find(anchor, pos - c0, end)
                resume[anchor] = pos
    return out


def _spans(windows: Iterable[array[int]]) -> Iterator[Tuple[int, int]]:
    """Merged windows of several anchors, in text order."""
    pairs = [zip(w[::2], w[1::2]) for w in windows if w]
    if len(pairs) == 1:  # one anchor's windows are merged and in order already
        yield from pairs[0]
        return
    merged: List[int] = []
    for lo, hi in heapq.merge(*pairs):
        if merged and lo <= merged[1]:
            merged[1] = max(merged[1], hi)
            continue
        if merged:
            yield merged[0], merged[1]
        merged = [lo, hi]
    if merged:
        yield merged[0], merged[1]


def _matches(sig: Signature, text: str, windows: Dict[str, array[int]]) -> List[re.Match[str]]:
    if sig.distinct:
        return _distinct_matches(sig, text, windows)
    if sig.anchors and not any(windows[a] for a in sig.anchors):
        return []  # no anchor occurs: most signatures, for most texts
    found: List[re.Match[str]] = []
    last_end = -1
    # (the loader gives every signature an anchor; one without would scan the whole text)
    spans = _spans(windows[a] for a in sig.anchors) if sig.anchors else iter([(0, len(text))])
    for lo, hi in spans:
        for m in sig.pattern.finditer(text, max(lo, last_end), hi):
            found.append(m)
            last_end = m.end()
            if len(found) >= MAX_HITS_PER_SIGNATURE:
                return found
    return found


def _distinct_matches(sig: Signature, text: str, windows: Dict[str, array[int]]) -> List[re.Match[str]]:
    """The first match of each of two different values of ``sig.distinct`` (or of a group
    whose name starts with it, for alternatives; dots ignored: "3.9" is "39"); none unless
    there are two. Still one pass over the anchor windows."""
    seen: Dict[str, re.Match[str]] = {}
    last_end = -1
    for lo, hi in _spans(windows[a] for a in sig.anchors):
        for m in sig.pattern.finditer(text, max(lo, last_end), hi):
            last_end = m.end()
            value = next((v for k, v in m.groupdict().items() if v and k.startswith(sig.distinct)), "")
            value = value.replace(".", "").lower()
            if value and value not in seen:
                seen[value] = m
                if len(seen) == 2:
                    return list(seen.values())
    return []


def _lines_of(text: str, start: int, end: int) -> str:
    """The line(s) a match spans, from at most CONTEXT characters before it, capped so a
    pathological match cannot flood output (and never a scan of a whole huge line)."""
    nl = text.rfind("\n", max(0, start - CONTEXT), start)
    lo = nl + 1 if nl >= 0 else max(0, start - CONTEXT)
    stop = min(len(text), max(end, start + 1) + MAX_LINE_CHARS)
    nl = text.find("\n", max(end - 1, start), stop)
    chunk = text[lo : nl if nl >= 0 else stop]
    lines = [ln.rstrip() for ln in chunk.split("\n")][:4]
    return "\n".join(ln[:MAX_LINE_CHARS] for ln in lines)


@dataclass(frozen=True)
class _Plan:
    """What a loaded signature set asks of every text, worked out once per set."""

    reach: Dict[str, int]  # anchor -> the longest reach of the signatures it anchors
    anchored: Dict[str, Tuple[int, ...]]  # anchor -> the signatures (positions) it anchors
    unanchored: Tuple[int, ...]  # signatures with no anchor: tried on every text


_PLANS: Dict[int, Tuple[SignatureSet, _Plan]] = {}


def _plan_of(sigs: SignatureSet) -> _Plan:
    """The set's plan, keyed by identity (the set is immutable and the cache keeps it alive)."""
    got = _PLANS.get(id(sigs))
    if got is not None and got[0] is sigs:
        return got[1]
    reach: Dict[str, int] = {}
    anchored: Dict[str, List[int]] = {}
    for i, sig in enumerate(sigs.signatures):
        for anchor in sig.anchors:
            reach[anchor] = max(reach.get(anchor, 0), sig.reach)
            anchored.setdefault(anchor, []).append(i)
    plan = _Plan(reach, {a: tuple(v) for a, v in anchored.items()},
                 tuple(i for i, sig in enumerate(sigs.signatures) if not sig.anchors))
    if len(_PLANS) >= 16:
        _PLANS.clear()
    _PLANS[id(sigs)] = (sigs, plan)
    return plan


def find_hits(text: str, sigs: SignatureSet, prep: Optional[Prepared] = None) -> Dict[str, List[Hit]]:
    """Every signature that matches ``text``, after ``unless`` suppression (``prep``: the
    text's :class:`Prepared`, when other searches of the same text share it)."""
    plan = _plan_of(sigs)
    windows = anchor_windows(text, plan.reach, prep)
    # only the signatures one of whose anchors occurs can match (most texts hold few anchors)
    tried = sorted({i for a, w in windows.items() if w for i in plan.anchored[a]}.union(plan.unanchored))
    matched = {sigs.signatures[i].id: _matches(sigs.signatures[i], text, windows) for i in tried}
    # line numbers: one pass over the text for all hits, in text order
    line_of: Dict[int, int] = {}
    line, pos = 1, 0
    for start in sorted({m.start() for ms in matched.values() for m in ms}):
        line += text.count("\n", pos, start)
        line_of[start], pos = line, start
    found: Dict[str, List[Hit]] = {}
    for sid, ms in matched.items():
        if ms:
            found[sid] = [
                Hit(sid, line_of[m.start()], _lines_of(text, m.start(), m.end()),
                    tuple((k, v.strip()) for k, v in m.groupdict().items() if v and v.strip()))
                for m in ms
            ]
    by_id = {s.id: s for s in sigs.signatures}
    return {sid: hits for sid, hits in found.items() if not any(u in found for u in by_id[sid].unless)}


#: below this best confidence no signature fits well, and the error's shape (a failed
#: import, a DLL or .so load) adds its generic causes (``[[fallback]]`` in signatures.toml)
FALLBACK_BELOW = 0.3


def match_text(text: str, sigs: SignatureSet) -> Tuple[Candidate, ...]:
    """Rank the causes the text points at. Weights of different signatures that point at
    one cause combine as a noisy-or (independent clues), so two clues beat one."""
    prep = Prepared(text)
    cands = _combine(prep, sigs, find_hits(text, sigs, prep), release=True)
    if sigs.fallbacks and (not cands or cands[0].confidence < FALLBACK_BELOW):
        shape = SignatureSet(sigs.fallbacks, ())
        generic = _combine(prep, shape, find_hits(text, shape, prep), release=False)
        if generic:
            return _merge(cands, generic)
    return cands


def _merge(first: Tuple[Candidate, ...], second: Tuple[Candidate, ...]) -> Tuple[Candidate, ...]:
    """Two candidate lists as one: the confidences of one slug combine as a noisy-or."""
    by_slug = {c.slug: c for c in first}
    for c in second:
        old = by_slug.get(c.slug)
        if old is None:
            by_slug[c.slug] = c
        else:
            conf = round(1.0 - (1.0 - old.confidence) * (1.0 - c.confidence), 4)
            by_slug[c.slug] = Candidate(c.slug, conf, old.hits + c.hits, old.evidence)
    return rank(list(by_slug.values()))


WORDS = "words"  # the hit of word evidence (dldoctor.explainer.words), which no signature made


def is_fallback(cand: Candidate) -> bool:
    """True when no signature points at this candidate: only the error's shape, or words."""
    return all(h.signature.startswith("shape-") or h.signature == WORDS for h in cand.hits)


def _combine(prep: Prepared, sigs: SignatureSet, hits: Dict[str, List[Hit]], release: bool) -> Tuple[Candidate, ...]:
    by_id = {s.id: s for s in sigs.signatures}
    miss: Dict[str, float] = {}
    slug_hits: Dict[str, List[Hit]] = {}
    for sid, sig_hits in hits.items():
        for slug, weight in by_id[sid].causes:
            miss[slug] = miss.get(slug, 1.0) * (1.0 - weight)
            slug_hits.setdefault(slug, []).extend(sig_hits)
    # release regressions: a table, not signatures (check reads it too); imported here
    # because that module builds on this one
    from dldoctor.explainer.platform import text_platform
    from dldoctor.explainer.releases import SLUG, release_hits

    for hit, weight in release_hits(prep.text, text_platform(prep.text), prep) if release else ():
        miss[SLUG] = miss.get(SLUG, 1.0) * (1.0 - weight)
        slug_hits.setdefault(SLUG, []).append(hit)
    cands = [
        Candidate(slug, round(1.0 - m, 4), tuple(sorted(slug_hits[slug], key=lambda h: h.line)))
        for slug, m in miss.items()
    ]
    return rank(cands)


def rank(cands: List[Candidate]) -> Tuple[Candidate, ...]:
    """Best first; ties broken by slug so output is stable across runs."""
    return tuple(sorted(cands, key=lambda c: (-c.confidence, c.slug)))


_WS = re.compile(r"[ \t]+")


def squeeze(text: str) -> str:
    """Collapse runs of blanks (for one-line summaries of a matched line)."""
    return _WS.sub(" ", text).strip()
