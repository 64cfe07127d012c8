"""Word evidence: explain's last resort for a failure that no signature recognises.

Signatures name mechanisms, and a report of a mechanism no signature knows yet gets no answer
from them, or only the generic causes of its error shape. Such a report still shares words with
the confirmed reports of its cause: the package, the library, the message's vocabulary, the
user's own phrasing. This module compares the pasted text with one centroid per cause (TF-IDF
vectors of the corpus's train split, cosine similarity) and proposes the nearest causes with low
confidence, labelled as what they are: words in common, not a recognised mechanism.

Measured on 1,888 reports no rule had been written on, the held-out splits of generations 2 to
18, each ranked with the rules and the train split of its own time (``bench/words_backtest.py``):
top-1 59.2% -> 63.8%, top-3 67.1% -> 76.7%; better or equal in every generation.

The table is data (``conditions/words.json``), built from the train split by
:func:`build_table` (``python tools/build_word_table.py``); a test checks that the shipped
table is the one the current train split gives, so it is rebuilt whenever train changes.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from dldoctor.conditions import DATA_DIR
from dldoctor.errors import DataError
from dldoctor.explainer.match import WORDS, Candidate, Hit, is_fallback, rank

TABLE = "words.json"
SCHEMA_VERSION = 1
TERMS_PER_CAUSE = 500  # the centroid's strongest terms kept per cause
MIN_DF = 2  # a word seen in one report only says nothing about a cause
WINDOW = 32 * 1024  # chars read from the head and from the tail of a text: bounded cost
CAP = 0.29  # word evidence is never more than a weak lead (below FALLBACK_BELOW, as shapes are)
LIMIT = 3  # causes proposed
SHOWN_TERMS = 6  # shared words shown as the reason ...
SHOWN_IDF = math.log(10)  # ... of those in fewer than 1 report in 10 (not "error", "import") ...
#: ... and no function word: shown words are the reason given, they should tell something
FUNCTION_WORDS = frozenset({
    "about", "after", "again", "all", "also", "and", "any", "are", "because", "been", "before", "but", "can",
    "could", "did", "does", "for", "from", "get", "got", "had", "has", "have", "how", "into", "its", "just",
    "not", "now", "one", "only", "our", "out", "she", "some", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "too", "use", "used", "using", "very", "was", "were", "what", "when",
    "where", "which", "while", "who", "why", "will", "with", "would", "you", "your",
})

_TOKEN = re.compile(r"[a-z][a-z0-9_]{2,30}")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]{2,200}")
#: a report of a failure: an exception's name, a Traceback, "error:", something that failed,
#: cannot, was not found, crashed or does not work, in any language the corpus holds. Word
#: evidence is offered only then, so a healthy log, a question or a test summary stays
#: unanswered ("0 failed", "Errors: 0", "mean_squared_error", "error handling" are no failures)
FAILURE = re.compile(
    r"\b[A-Z]\w{0,40}(?:Error|Exception)\b(?!\s{0,2}:\s{0,2}0\b)|Traceback \(most recent call last\)"
    r"|(?i:(?<!\b0 )(?<!\bno )(?<!without )(?<!without any )\b(?:errors?|fatal|exception)\b"
    r"(?!\s{0,2}:\s{0,3}0\b| handling| bars?\b| rates?\b| analysis| checking)"
    r"|(?<!\b0 )\bfail(?:s|ed|ing|ure)?\b|\bcannot\b|\bcan'?t\b|\bcould ?n[o']t\b|\bunable to\b"
    r"|\bnot found\b|\bno module named\b|\bmissing\b(?! values?\b| data\b)|\bcrash(?:es|ed|ing)?\b"
    r"|\b(?:does ?n[o']t|do ?n[o']t|did ?n[o']t|not|stopped|won'?t) (?:work|start|load|run|detect|find|see|launch"
    r"|open|recogni[sz]e)\w{0,3}\b"
    r"|\bbroken\b|\bnot (?:available|supported|compatible)\b"
    r"|报错|错误|失败|无法|不能|不了|闪退|出错|エラー|失敗|できません|しない|動かない|오류|에러|ошибк|не работает"
    r"|не удается|не видит|не видят|не запускается"
    r"|\bn[ãa]o funciona|\bno funciona|\bno detecta|\berro\b|\bfehler\b|funktioniert nicht|nicht erkannt"
    r"|\bfallo\b|\béchec\b|ne fonctionne pas)"
)
#: out of scope: failures no condition is about (memory exhausted); words would only guess
OUT_OF_SCOPE = re.compile(r"out of memory|OutOfMemoryError|\bOOM\b", re.IGNORECASE)


#: words of success: beside them, only an error's own vocabulary counts as a failure
#: ("it could not be simpler, it works" is no report). Success denied ("not working", "no longer
#: works") or in the past ("it was working last week", "worked before the update") is a report
SUCCESS = re.compile(
    r"(?<!\bnot )(?<!n't )(?<!\bnever )(?<!\blonger )(?<!\bstopped )(?<!\bstop )"
    r"\b(?:works?|worked|working|fine|success\w{0,6}|solved|fixed|resolved)\b"
    r"(?! (?:before|until|till|previously|earlier|yesterday|last \w{1,10}|anymore|any ?more)\b)",
    re.IGNORECASE,
)
STRONG = re.compile(
    r"\b[A-Z]\w{0,40}(?:Error|Exception)\b|Traceback|(?i:(?<![\w_])(?:error|fatal)\s{0,2}:)|报错|错误|エラー"
)


def reports_failure(text: str) -> bool:
    """The text reports something that failed (in its head or tail window), and it is not
    a failure outside what explain knows (running out of memory)."""
    head = window(text)
    if FAILURE.search(head) is None or OUT_OF_SCOPE.search(head) is not None:
        return False
    return SUCCESS.search(head) is None or STRONG.search(head) is not None


def window(text: str) -> str:
    """The head and the tail of a text: a report's title, the user's words and the final
    exception live there, and a 32 MiB paste costs no more than a short one."""
    if len(text) <= 2 * WINDOW:
        return text
    return text[:WINDOW] + "\n" + text[-WINDOW:]


def tokens(text: str) -> Counter[str]:
    """Lower-case words of 3+ letters (identifiers stay whole: fbgemm, winerror, cudnn64_8) and
    character pairs of Chinese/Japanese runs, which have no spaces."""
    low = window(text).lower()
    out: Counter[str] = Counter(_TOKEN.findall(low))
    for run in _CJK.findall(low):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def _unit(weights: Mapping[str, float]) -> Dict[str, float]:
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    return {t: w / norm for t, w in weights.items()}


def _tfidf(counts: Mapping[str, int], idf: Mapping[str, float], unknown: float = 0.0) -> Dict[str, float]:
    """Unit TF-IDF vector of the terms ``idf`` knows; with ``unknown`` > 0 the terms it does
    not know weigh that much each in the norm, so a text of mostly unknown words is far from
    every cause instead of as near as its one known word makes it."""
    weights = {t: (1.0 + math.log(n)) * idf[t] for t, n in counts.items() if t in idf}
    rest = sum(((1.0 + math.log(n)) * unknown) ** 2 for t, n in counts.items() if t not in idf) if unknown else 0.0
    norm = math.sqrt(sum(w * w for w in weights.values()) + rest) or 1.0
    return {t: w / norm for t, w in weights.items()}


def corpus_digest(cases: Iterable[Tuple[str, str, str]]) -> str:
    """A digest of (name, cause, text) of every case: the table records the corpus it came from."""
    h = hashlib.sha256()
    for name, cause, text in sorted(cases):
        h.update(f"{name}\0{cause}\0{hashlib.sha256(text.encode('utf-8')).hexdigest()}\n".encode())
    return h.hexdigest()


def build_table(cases: Sequence[Tuple[str, str, str]], source: str) -> Dict[str, Any]:
    """The table for ``cases`` (name, cause, text): inverse document frequencies, and per cause
    the mean of its reports' unit TF-IDF vectors, cut to its strongest terms and re-normalised."""
    counts = [(cause, tokens(text)) for _, cause, text in cases]
    df: Counter[str] = Counter(t for _, c in counts for t in c)
    n = len(counts)
    idf = {t: math.log(n / k) for t, k in df.items() if k >= MIN_DF}
    sums: Dict[str, Counter[str]] = {}
    per_cause: Counter[str] = Counter()
    for cause, c in counts:
        sums.setdefault(cause, Counter()).update(_tfidf(c, idf))
        per_cause[cause] += 1
    centroids: Dict[str, Dict[str, float]] = {}
    for cause, total in sorted(sums.items()):
        mean = sorted(((t, w / per_cause[cause]) for t, w in total.items()), key=lambda tw: (-tw[1], tw[0]))
        kept = _unit(dict(mean[:TERMS_PER_CAUSE]))
        centroids[cause] = {t: round(w, 5) for t, w in sorted(kept.items()) if round(w, 5) > 0}
    used = sorted({t for terms in centroids.values() for t in terms})
    return {
        "schema_version": SCHEMA_VERSION,
        "source": source,
        "cases": n,
        "digest": corpus_digest(cases),
        "idf": {t: round(idf[t], 5) for t in used},
        "centroids": centroids,
    }


def dump_table(table: Mapping[str, Any]) -> str:
    """JSON with one line per cause, so a rebuilt table reads as a diff per cause."""
    head = {k: v for k, v in table.items() if k not in ("idf", "centroids")}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    lines.append(f'  "idf": {json.dumps(table["idf"], ensure_ascii=False, sort_keys=True)},')
    lines.append('  "centroids": {')
    items = sorted(table["centroids"].items())
    for i, (cause, terms) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(cause)}: {json.dumps(terms, ensure_ascii=False, sort_keys=True)}{comma}")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class WordTable:
    idf: Mapping[str, float]
    postings: Mapping[str, Tuple[Tuple[str, float], ...]]  # term -> (cause, weight) pairs
    unknown_idf: float  # a term the table does not hold is at least this rare: log(cases)


def parse_table(raw: Any) -> WordTable:
    """The table from its JSON value; :class:`DataError` (one line, exit 2) if it is not one."""
    if not isinstance(raw, dict) or raw.get("schema_version") != SCHEMA_VERSION:
        raise DataError(f"{TABLE}: schema_version must be {SCHEMA_VERSION}")
    try:
        postings: Dict[str, List[Tuple[str, float]]] = {}
        for cause, terms in raw["centroids"].items():
            for term, weight in terms.items():
                postings.setdefault(term, []).append((cause, float(weight)))
        unknown = math.log(max(2, int(raw.get("cases", 2))))
        idf = {t: float(v) for t, v in raw["idf"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"{TABLE}: malformed ({type(exc).__name__}: {exc})") from None
    return WordTable(idf, {t: tuple(p) for t, p in postings.items()}, unknown)


@lru_cache(maxsize=1)
def load_table() -> WordTable:
    """The shipped table, read once, and only when a text needs it."""
    try:
        raw = json.loads((DATA_DIR / TABLE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise DataError(f"{TABLE}: cannot be read ({exc})") from None
    return parse_table(raw)


def nearest(text: str, table: WordTable, limit: int = LIMIT) -> List[Tuple[str, float, Tuple[str, ...]]]:
    """(cause, cosine similarity, shared terms strongest first) of the ``limit`` nearest causes."""
    vec = _tfidf(tokens(text), table.idf, table.unknown_idf)
    score: Dict[str, float] = {}
    shared: Dict[str, List[Tuple[float, str]]] = {}
    for term, w in vec.items():
        for cause, cw in table.postings.get(term, ()):
            score[cause] = score.get(cause, 0.0) + w * cw
            shared.setdefault(cause, []).append((w * cw, term))
    best = sorted(score.items(), key=lambda cs: (-cs[1], cs[0]))[:limit]
    out = []
    for cause, s in best:
        if s <= 0:
            continue
        terms = [t for _, t in sorted(shared[cause], reverse=True)]
        telling = [t for t in terms if table.idf[t] >= SHOWN_IDF and t not in FUNCTION_WORDS]
        telling = telling or [t for t in terms if t not in FUNCTION_WORDS] or terms
        out.append((cause, s, tuple(telling[:SHOWN_TERMS])))
    return out


def _lines_of(text: str, terms: Sequence[str]) -> List[int]:
    """The line where each term first shows in the head or the tail window (1 if neither):
    each window is lowered once for all the terms."""
    head = text[:WINDOW].lower()
    start = max(0, len(text) - WINDOW)
    tail = text[start:].lower() if start else ""
    lines = []
    for term in terms:
        at = head.find(term) if term else -1
        if at < 0 and tail and term:
            at = tail.find(term)
            at = start + at if at >= 0 else -1
        lines.append(text.count("\n", 0, at) + 1 if at >= 0 else 1)
    return lines


def word_candidates(text: str, table: Optional[WordTable] = None) -> Tuple[Candidate, ...]:
    """The nearest causes by shared words, each a weak candidate whose hit names those words;
    none unless the text reports a failure."""
    if not reports_failure(text):
        return ()
    near = nearest(text, table or load_table())
    lines = _lines_of(text, [terms[0] if terms else "" for _, _, terms in near])
    out = []
    for (cause, similarity, terms), line in zip(near, lines):
        words = ", ".join(terms)
        hit = Hit(WORDS, line, f"words shared with confirmed reports of this cause: {words}", (("words", words),))
        out.append(Candidate(cause, round(min(CAP, similarity), 4), (hit,)))
    return rank(out)


def with_words(cands: Tuple[Candidate, ...], text: str, table: Optional[WordTable] = None) -> Tuple[Candidate, ...]:
    """The signatures' candidates with word evidence: in their place (combined with the error
    shape's generic causes) when no signature recognised the text, and after them otherwise,
    below their weakest, so a recognised mechanism keeps its rank."""
    words = word_candidates(text, table)
    if not words:
        return cands
    if not cands or is_fallback(cands[0]):
        # words and the error's shape are both weak and not independent: the stronger counts
        by_slug = {c.slug: c for c in cands}
        for w in words:
            old = by_slug.get(w.slug)
            by_slug[w.slug] = w if old is None else replace(old, confidence=max(old.confidence, w.confidence),
                                                            hits=old.hits + w.hits)
        return rank(list(by_slug.values()))
    floor = min(c.confidence for c in cands)
    known = {c.slug for c in cands}
    below = [replace(w, confidence=round(min(w.confidence, floor * 0.99), 4)) for w in words if w.slug not in known]
    return cands + tuple(below)


def cap_words(cands: Tuple[Candidate, ...]) -> Tuple[Candidate, ...]:
    """Candidates only words point at stay weak leads (at most CAP) whatever weighed them."""
    capped = [replace(c, confidence=CAP) if c.confidence > CAP and all(h.signature == WORDS for h in c.hits)
              else c for c in cands]
    return cands if capped == list(cands) else rank(capped)
