"""Word evidence's table: how a text becomes a TF-IDF vector, and the table built, written and
read from the corpus's train split (``conditions/words.json``).

Kept apart from :mod:`dldoctor.explainer.words`, which reads the table to rank causes: building
and dumping run only in ``tools/build_word_table.py``, the tests and the backtest, and the
table's format (its schema, its validation) is one job, not the ranking's. The text-to-vector
functions live here because the table is made of their output, and a pasted text must become
a vector exactly as the train reports did.

The table holds, per cause, the centroid of its reports (the mean of their unit TF-IDF vectors,
cut to its strongest terms) and, per train report, its own unit vector cut to its strongest
terms: the nearest reports find a cause whose few reports resemble each other less than its
centroid suggests, or a report much like one seen before.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Sequence, Tuple

from dldoctor.errors import DataError

TABLE = "words.json"
SCHEMA_VERSION = 2
TERMS_PER_CAUSE = 500  # the centroid's strongest terms kept per cause
TERMS_PER_CASE = 40  # a train report's strongest terms kept
MIN_DF = 2  # a word seen in one report only says nothing about a cause
WINDOW = 32 * 1024  # chars read from the head and from the tail of a text: bounded cost

_TOKEN = re.compile(r"[a-z][a-z0-9_]{2,30}")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]{2,200}")


def window(text: str, size: int = WINDOW) -> str:
    """The head and the tail of a text (``size`` characters each): a report's title, the user's
    words and the final exception live there, and a 32 MiB paste costs no more than a short one."""
    if len(text) <= 2 * size:
        return text
    return text[:size] + "\n" + text[-size:]


def tokens(text: str) -> Counter[str]:
    """Lower-case words of 3+ letters (identifiers stay whole: fbgemm, winerror, cudnn64_8) and
    character pairs of Chinese/Japanese runs, which have no spaces."""
    low = window(text).lower()
    out: Counter[str] = Counter(_TOKEN.findall(low))
    for run in _CJK.findall(low):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def unit(weights: Mapping[str, float]) -> Dict[str, float]:
    """``weights`` scaled to length 1 (left as they are if all zero)."""
    norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
    return {t: w / norm for t, w in weights.items()}


def tfidf(counts: Mapping[str, int], idf: Mapping[str, float], unknown: float = 0.0) -> Dict[str, float]:
    """Unit TF-IDF vector of the terms ``idf`` knows; with ``unknown`` > 0 the terms it does
    not know weigh that much each in the norm, so a text of mostly unknown words is far from
    every cause instead of as near as its one known word makes it."""
    weights = {t: (1.0 + math.log(n)) * idf[t] for t, n in counts.items() if t in idf}
    rest = sum(((1.0 + math.log(n)) * unknown) ** 2 for t, n in counts.items() if t not in idf) if unknown else 0.0
    norm = math.sqrt(sum(w * w for w in weights.values()) + rest) or 1.0
    return {t: w / norm for t, w in weights.items()}


def _strongest(weights: Mapping[str, float], keep: int) -> Dict[str, float]:
    """The ``keep`` strongest terms (ties by term), re-normalised, rounded to 5 decimals, sorted."""
    kept = unit(dict(sorted(weights.items(), key=lambda tw: (-tw[1], tw[0]))[:keep]))
    return {t: round(w, 5) for t, w in sorted(kept.items()) if round(w, 5) > 0}


def corpus_digest(cases: Iterable[Tuple[str, str, str]]) -> str:
    """A digest of (name, cause, text) of every case: the table records the corpus it came from."""
    h = hashlib.sha256()
    for name, cause, text in sorted(cases):
        h.update(f"{name}\0{cause}\0{hashlib.sha256(text.encode('utf-8')).hexdigest()}\n".encode())
    return h.hexdigest()


def build_table(cases: Sequence[Tuple[str, str, str]], source: str) -> Dict[str, Any]:
    """The table for ``cases`` (name, cause, text): inverse document frequencies; per cause the
    mean of its reports' unit TF-IDF vectors, cut to its strongest terms and re-normalised; per
    report (by name) its own vector, cut and re-normalised the same way."""
    counts = [(name, cause, tokens(text)) for name, cause, text in cases]
    df: Counter[str] = Counter(t for _, _, c in counts for t in c)
    n = len(counts)
    idf = {t: math.log(n / k) for t, k in df.items() if k >= MIN_DF}
    sums: Dict[str, Counter[str]] = {}
    per_cause: Counter[str] = Counter()
    reports = []
    for name, cause, c in sorted(counts, key=lambda ncc: (ncc[0], ncc[1])):
        vec = tfidf(c, idf)
        sums.setdefault(cause, Counter()).update(vec)
        per_cause[cause] += 1
        reports.append({"case": name, "cause": cause, "terms": _strongest(vec, TERMS_PER_CASE)})
    centroids = {cause: _strongest({t: w / per_cause[cause] for t, w in total.items()}, TERMS_PER_CAUSE)
                 for cause, total in sorted(sums.items())}
    used = {t for terms in centroids.values() for t in terms} | {t for r in reports for t in r["terms"]}
    return {
        "schema_version": SCHEMA_VERSION,
        "source": source,
        "cases": n,
        "digest": corpus_digest(cases),
        "idf": {t: round(idf[t], 5) for t in sorted(used)},
        "centroids": centroids,
        "case_vectors": reports,
    }


def dump_table(table: Mapping[str, Any]) -> str:
    """JSON with one line per cause and one per train report, so a rebuilt table reads as a
    diff per cause and per report."""
    head = {k: v for k, v in table.items() if k not in ("idf", "centroids", "case_vectors")}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    lines.append(f'  "idf": {json.dumps(table["idf"], ensure_ascii=False, sort_keys=True)},')
    centroids = [f"    {json.dumps(cause)}: {json.dumps(terms, ensure_ascii=False, sort_keys=True)}"
                 for cause, terms in sorted(table["centroids"].items())]
    lines += ['  "centroids": {', ",\n".join(centroids), "  },"]
    reports = [f"    {json.dumps(report, ensure_ascii=False)}" for report in table["case_vectors"]]
    lines += ['  "case_vectors": [', ",\n".join(reports), "  ]", "}"]
    return "\n".join(line for line in lines if line) + "\n"  # no empty line for an empty list


@dataclass(frozen=True)
class WordTable:
    idf: Mapping[str, float]
    postings: Mapping[str, Tuple[Tuple[str, float], ...]]  # term -> (cause, weight) of the centroids
    unknown_idf: float  # a term the table does not hold is at least this rare: log(cases)
    #: term -> (case indices, their weights) of the train reports' vectors: two flat arrays
    #: per term, 12 bytes a posting (tuples of pairs would take 80)
    case_postings: Mapping[str, Tuple[Sequence[int], Sequence[float]]]
    case_causes: Tuple[str, ...]  # case index -> its cause


def _fault(terms: Mapping[str, Any], idf: Mapping[str, float]) -> str:
    """What is wrong with a vector ('' if nothing): its terms must be terms of the idf, its
    weights numbers in (0, 1]."""
    if not isinstance(terms, dict):
        return f"terms must be an object, not {type(terms).__name__}"
    if not idf.keys() >= terms.keys():
        return f"terms without idf: {sorted(set(terms) - set(idf))[:3]}"
    try:
        if terms and not 0 < min(terms.values()) <= max(terms.values()) <= 1:
            return "weights must be numbers in (0, 1]"
    except TypeError:
        return "weights must be numbers in (0, 1]"
    return ""


def parse_table(raw: Any) -> WordTable:
    """The table from its JSON value; :class:`DataError` (one line, exit 2) if it is not one."""
    if not isinstance(raw, dict) or raw.get("schema_version") != SCHEMA_VERSION:
        raise DataError(f"{TABLE}: schema_version must be {SCHEMA_VERSION}")
    try:
        idf = {t: float(v) for t, v in raw["idf"].items()}
        postings: Dict[str, List[Tuple[str, float]]] = {}
        for cause, terms in raw["centroids"].items():
            fault = _fault(terms, idf)
            if fault:
                raise ValueError(f"centroids[{cause!r}]: {fault}")
            for term, weight in terms.items():
                postings.setdefault(term, []).append((cause, float(weight)))
        cases = int(raw["cases"])
        case_postings, causes = _case_postings(raw["case_vectors"], cases, idf)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"{TABLE}: malformed ({type(exc).__name__}: {exc})") from None
    return WordTable(idf, {t: tuple(p) for t, p in postings.items()}, math.log(max(2, cases)),
                     case_postings, causes)


def _case_postings(reports: Any, cases: int, idf: Mapping[str, float]) -> Tuple[
        Dict[str, Tuple[Sequence[int], Sequence[float]]], Tuple[str, ...]]:
    """The train reports' vectors inverted (term -> case indices, weights), and each one's
    cause. The ~150,000 weights are checked at once; a case is looked for only if one is bad."""
    if not isinstance(reports, list) or len(reports) != cases:
        raise ValueError(f"case_vectors must be a list of the {cases} train reports")
    lists: Dict[str, Tuple[List[int], List[float]]] = {}
    causes = []
    for i, report in enumerate(reports):
        cause, terms = report["cause"], report["terms"]
        if not isinstance(cause, str) or not cause or not isinstance(terms, dict):
            raise ValueError(f"case_vectors[{i}]: needs a cause (a name) and terms (an object)")
        causes.append(cause)
        for term, weight in terms.items():
            ids, weights = lists.get(term) or lists.setdefault(term, ([], []))
            ids.append(i)
            weights.append(weight)
    try:
        fine = lists.keys() <= idf.keys() and all(min(w) > 0 and max(w) <= 1 for _, w in lists.values())
    except TypeError:  # a weight that is no number
        fine = False
    if not fine:
        bad = [i for i, report in enumerate(reports) if _fault(report["terms"], idf)][:1]
        raise ValueError(f"case_vectors[{bad[0]}]: {_fault(reports[bad[0]]['terms'], idf)}" if bad else
                         "case_vectors: a term without idf or a weight out of (0, 1]")
    return {t: (array("I", ids), array("d", weights)) for t, (ids, weights) in lists.items()}, tuple(causes)
