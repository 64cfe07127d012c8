"""Text -> ranked candidate causes, from signatures alone (pure, no machine facts).

Users paste whole CI logs, and a hostile paste can be 32 MiB of one line. Matching is linear
in the text's size, whatever it holds:

* every signature declares lower-case literal anchors that each of its matches contains,
  and the loader rejects any pattern that can match more than ``reach`` characters
  (:mod:`dldoctor.explainer.signatures`: every repeat bounded). So a regex only ever runs on
  windows of ``reach`` characters around anchor occurrences, never on the whole text;
* anchors are found in linear time (:mod:`dldoctor.explainer.anchors`), and only the
  signatures one of whose anchors occurs are tried, and of those only the ones whose windows
  hold the other literals their matches need (:mod:`dldoctor.explainer.literals`: a substring
  search costs a hundredth of what ``re`` spends trying a pattern at each position);
* a regex reads at most :data:`SCAN_BUDGET` characters of its windows (their first and last
  halves), so a paste dense in one signature's anchors costs what 1 MiB of it costs;
* line numbers and the lines shown are computed once per hit from bounded neighbourhoods.
"""

from __future__ import annotations

import heapq
import re
from array import array
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from dldoctor.explainer.anchors import AnchorPlan, Prepared, anchor_windows, plan_anchors
from dldoctor.explainer.signatures import Signature, SignatureSet

MAX_HITS_PER_SIGNATURE = 3
MAX_LINE_CHARS = 400
CONTEXT = 200  # chars of a long line shown before a match
#: The most characters of its anchor windows one signature's regex reads in one text: the first
#: and the last half. Linear is not enough when the constant is a gap's length: a paste dense in
#: one signature's anchors (a video's per-frame detection lines, a notebook importing h5py in
#: every cell) makes every copy start an attempt that scans its whole gap. So such a paste costs
#: what 1 MiB of it costs, not 32 MiB's worth; a log's end, where its traceback is, is still read.
#: The price: a clue only in the middle of such a paste is not seen, and neither is a specific
#: signature there that would make a generic one moot (``unless``).
SCAN_BUDGET = 1 << 20


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


def _budgeted(spans: Iterable[Tuple[int, int]], reach: int, budget: int = SCAN_BUDGET) -> List[Tuple[int, int, int]]:
    """``(lo, hi, end)``: a match is tried from ``lo`` to before ``hi`` and may read up to
    ``end``. The spans whole, or when they hold more than ``budget`` characters their first and
    last ``budget // 2`` characters (see :data:`SCAN_BUDGET`). Where the first half is cut inside
    a span, a match starting before the cut still reads ``reach`` characters past it: a
    look-ahead ("not followed by ...") must not take the cut for the text's end."""
    spans = list(spans)
    if sum(hi - lo for lo, hi in spans) <= budget:
        return [(lo, hi, hi) for lo, hi in spans]
    half = budget // 2
    head: List[Tuple[int, int, int]] = []
    used = 0
    for lo, hi in spans:
        if used >= half:
            break
        cut = min(hi, lo + half - used)
        head.append((lo, cut, min(hi, cut + reach)))
        used += cut - lo
    tail: List[Tuple[int, int, int]] = []
    used = 0
    for lo, hi in reversed(spans):
        if used >= half:
            break
        start = max(lo, hi - (half - used))  # a look-behind still sees the text before it
        tail.append((start, hi, hi))
        used += hi - start
    return head + tail[::-1]


def _scan(sig: Signature, text: str, budgeted: List[Tuple[int, int, int]]) -> Iterator[re.Match[str]]:
    """The signature's matches in the :func:`_budgeted` spans, in text order, none overlapping
    the one before; the caller stops reading when it has what it needs."""
    last_end = -1
    for lo, hi, end in budgeted:
        for m in sig.pattern.finditer(text, max(lo, last_end), end):
            if m.start() >= hi:
                break
            last_end = m.end()
            yield m


#: past this many spans, asking each for the signature's literals costs more than it saves
MAX_PREFILTER_SPANS = 64


def _may_match(sig: Signature, prep: Optional[Prepared], budgeted: List[Tuple[int, int, int]]) -> bool:
    """False when no top-level alternative of the pattern can match in the spans: one of its
    clauses has none of its literals in any of them (:mod:`dldoctor.explainer.literals`).
    Searched in the lowered text the anchor search left (a span outside it, of a text of
    several chunks, is not asked: it may match)."""
    if not sig.requires or prep is None or len(budgeted) > MAX_PREFILTER_SPANS:
        return True
    where = []
    for lo, _, end in budgeted:
        got = prep.cached(lo, end)
        if got is None:
            return True
        low, c0 = got
        where.append((low, lo - c0, end - c0))
    seen: Dict[str, bool] = {}

    def occurs(literal: str) -> bool:
        if literal not in seen:
            seen[literal] = any(low.find(literal, a, b) >= 0 for low, a, b in where)
        return seen[literal]

    return any(all(any(map(occurs, clause)) for clause in alternative) for alternative in sig.requires)


def _matches(
    sig: Signature, text: str, windows: Dict[str, array[int]], prep: Optional[Prepared] = None,
) -> List[re.Match[str]]:
    # (the loader gives every signature an anchor; one without would scan the whole text)
    spans = _spans(windows[a] for a in sig.anchors) if sig.anchors else iter([(0, len(text))])
    budgeted = _budgeted(spans, sig.reach)
    if not _may_match(sig, prep, budgeted):
        return []
    if sig.distinct:
        return _distinct_matches(sig, text, budgeted)
    found: List[re.Match[str]] = []
    for m in _scan(sig, text, budgeted):
        found.append(m)
        if len(found) >= MAX_HITS_PER_SIGNATURE:
            break
    return found


def _distinct_matches(sig: Signature, text: str, budgeted: List[Tuple[int, int, int]]) -> List[re.Match[str]]:
    """The first match of each of two different values of ``sig.distinct`` (or of a group
    whose name starts with it, for alternatives; dots ignored: "3.9" is "39"); none unless
    there are two. Still one pass over the anchor windows."""
    seen: Dict[str, re.Match[str]] = {}
    for m in _scan(sig, text, budgeted):
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
    """What a tuple of signatures asks of every text, worked out once per tuple."""

    reach: Dict[str, int]  # anchor -> the longest reach of the signatures it anchors
    anchors: AnchorPlan  # how the anchor search shares work between anchors
    anchored: Dict[str, Tuple[int, ...]]  # anchor -> the signatures (positions) it anchors
    unanchored: Tuple[int, ...]  # signatures with no anchor: tried on every text


_PLANS: Dict[int, Tuple[Tuple[Signature, ...], _Plan]] = {}


def _plan_of(signatures: Tuple[Signature, ...]) -> _Plan:
    """The plan of a tuple of signatures, keyed by its identity (a loaded set's tuples are
    immutable and the cache keeps them alive): the signatures and the fallbacks of a set, which
    :func:`match_text` wraps in a new set for every text, each keep theirs."""
    got = _PLANS.get(id(signatures))
    if got is not None and got[0] is signatures:
        return got[1]
    reach: Dict[str, int] = {}
    anchored: Dict[str, List[int]] = {}
    for i, sig in enumerate(signatures):
        for anchor in sig.anchors:
            reach[anchor] = max(reach.get(anchor, 0), sig.reach)
            anchored.setdefault(anchor, []).append(i)
    plan = _Plan(reach, plan_anchors(tuple(reach.items())), {a: tuple(v) for a, v in anchored.items()},
                 tuple(i for i, sig in enumerate(signatures) if not sig.anchors))
    if len(_PLANS) >= 16:
        _PLANS.clear()
    _PLANS[id(signatures)] = (signatures, plan)
    return plan


def find_hits(text: str, sigs: SignatureSet, prep: Optional[Prepared] = None) -> Dict[str, List[Hit]]:
    """Every signature that matches ``text``, after ``unless`` suppression (``prep``: the
    text's :class:`Prepared`, when other searches of the same text share it)."""
    plan = _plan_of(sigs.signatures)
    prep = prep if prep is not None and prep.text is text else Prepared(text)
    windows = anchor_windows(text, plan.reach, prep, plan.anchors)
    # only the signatures one of whose anchors occurs can match (most texts hold few anchors)
    tried = sorted({i for a, w in windows.items() if w for i in plan.anchored[a]}.union(plan.unanchored))
    matched = {sigs.signatures[i].id: _matches(sigs.signatures[i], text, windows, prep) for i in tried}
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
            return merge(cands, generic)
    return cands


def merge(first: Sequence[Candidate], second: Sequence[Candidate]) -> Tuple[Candidate, ...]:
    """Two candidate lists as one, ranked: the confidences of one slug combine as a noisy-or
    (independent clues), their hits and evidence are kept, the first list's first."""
    by_slug: Dict[str, Candidate] = {}
    for c in (*first, *second):
        old = by_slug.get(c.slug)
        if old is None:
            by_slug[c.slug] = c
        else:
            conf = round(1.0 - (1.0 - old.confidence) * (1.0 - c.confidence), 4)
            by_slug[c.slug] = Candidate(c.slug, conf, old.hits + c.hits, old.evidence + c.evidence)
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
