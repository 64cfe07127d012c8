"""Text -> ranked candidate causes, from signatures alone (pure, no machine facts).

Speed matters because users paste whole CI logs: each signature declares lower-case
literal anchors, found with C-level substring search, and its regex runs only on a window
of lines around each anchor occurrence. A regex that starts with a character class gets no
literal-prefix scan from ``re`` and would cost ~10-500 ms per pass over a 10,000-line log;
on windows the whole match costs a few milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Tuple

from dldoctor.explainer.signatures import Signature, SignatureSet

MAX_HITS_PER_SIGNATURE = 3
MAX_LINE_CHARS = 400
WINDOW = 1500  # chars each side of an anchor (multi-line patterns span up to ~1,000)
MAX_ANCHOR_SITES = 64  # past this many occurrences, scan the whole text once instead


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


def _lines_of(text: str, start: int, end: int) -> str:
    """The full lines a match spans, capped so a pathological match cannot flood output."""
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", max(end - 1, start))
    chunk = text[lo : hi if hi != -1 else len(text)]
    lines = [ln.rstrip() for ln in chunk.split("\n")][:4]
    joined = "\n".join(ln[:MAX_LINE_CHARS] for ln in lines)
    return joined


def _windows(text: str, lower: str, anchors: Tuple[str, ...]) -> List[Tuple[int, int]]:
    """Line-aligned, merged spans around every anchor occurrence; [] when none occurs,
    one whole-text span when there are too many occurrences to be worth windowing."""
    sites: List[int] = []
    for anchor in anchors:
        pos = lower.find(anchor)
        while pos != -1:
            sites.append(pos)
            if len(sites) > MAX_ANCHOR_SITES:
                return [(0, len(text))]
            pos = lower.find(anchor, pos + 1)
    spans: List[Tuple[int, int]] = []
    for pos in sorted(sites):
        lo = text.rfind("\n", 0, max(0, pos - WINDOW)) + 1
        hi = text.find("\n", min(len(text), pos + WINDOW))
        hi = len(text) if hi == -1 else hi
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(hi, spans[-1][1]))
        else:
            spans.append((lo, hi))
    return spans


def _hits_for(sig: Signature, text: str, lower: str) -> List[Hit]:
    spans = _windows(text, lower, sig.anchors) if sig.anchors else [(0, len(text))]
    hits: List[Hit] = []
    for lo, hi in spans:
        for m in sig.pattern.finditer(text, lo, hi):
            subject = tuple((k, v.strip()) for k, v in m.groupdict().items() if v and v.strip())
            line = text.count("\n", 0, m.start()) + 1
            hits.append(Hit(sig.id, line, _lines_of(text, m.start(), m.end()), subject))
            if len(hits) >= MAX_HITS_PER_SIGNATURE:
                return hits
    return hits


def find_hits(text: str, sigs: SignatureSet) -> Dict[str, List[Hit]]:
    """Every signature that matches ``text``, after ``unless`` suppression."""
    lower = text.lower()
    if len(lower) != len(text):  # a few characters change length when lowered (e.g. "İ")
        lower = "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in text)
    found: Dict[str, List[Hit]] = {}
    for sig in sigs.signatures:
        hits = _hits_for(sig, text, lower)
        if hits:
            found[sig.id] = hits
    by_id = {s.id: s for s in sigs.signatures}
    return {sid: hits for sid, hits in found.items() if not any(u in found for u in by_id[sid].unless)}


def match_text(text: str, sigs: SignatureSet) -> Tuple[Candidate, ...]:
    """Rank the causes the text points at. Weights of different signatures that point at
    one cause combine as a noisy-or (independent clues), so two clues beat one."""
    hits = find_hits(text, sigs)
    by_id = {s.id: s for s in sigs.signatures}
    miss: Dict[str, float] = {}
    slug_hits: Dict[str, List[Hit]] = {}
    for sid, sig_hits in hits.items():
        for slug, weight in by_id[sid].causes:
            miss[slug] = miss.get(slug, 1.0) * (1.0 - weight)
            slug_hits.setdefault(slug, []).extend(sig_hits)
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
