"""Load and validate ``signatures.toml``: the error-text side of the condition data.

The file is data, not code, so a typo must fail loudly at load (and in the tests), never
mislead a user at run time: every regex is compiled here and every slug must name a condition
in ``conditions.toml``. How to tell a cause apart from its rivals is the condition's own
``confirm``; that every condition is detected by something is checked by
:mod:`dldoctor.detection`.

A message Windows (or a library) prints in many languages is one list in the file's
``[phrases]`` table, named ``<<name>>`` in a pattern or an anchor list and expanded here, so
that no signature's copy of the list lags behind another's.

Matching must stay linear in the size of a pasted text (up to 32 MiB), so the loader also
rejects what would make it otherwise: a signature without an anchor (its regex would scan
the whole text), and a pattern with an unbounded repeat (``*``, ``+``, ``{n,}``), a repeat
past :data:`MAX_REPEAT`, or a longest match past :data:`MAX_REACH` characters. Each pattern's
longest match (its ``reach``) is what :mod:`dldoctor.explainer.match` scans around an
anchor; see ``tests/explainer/test_explain_linear.py`` and ``bench/bench_explain_hostile.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Iterator, List, Mapping, Optional, Pattern, Sequence, Set, Tuple

from dldoctor import conditions
from dldoctor.conditions import DataError
from dldoctor.explainer.literals import REPEATS, SRE, ZERO_WIDTH, Requirements, requirements

FACTS = ("os", "torch_version", "torch_cuda", "gpu_driver", "python_bits")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: ``<<name>>`` in a pattern or an anchor list: a phrase list of the file's ``[phrases]`` table
_PHRASE_REF = re.compile(r"<<([a-z_]{1,60})>>")
_SIG_KEYS = {"id", "anchor", "pattern", "causes", "unless", "distinct"}
_EVIDENCE_KEYS = {"slug", "fact", "is", "is_not", "factor", "reason"}
FLAGS = re.IGNORECASE | re.MULTILINE
#: Longest repeat a pattern may hold ({0,2000}): a path, a symbol, a version list.
MAX_REPEAT = 2000
#: Longest text one pattern may match: the window scanned around each anchor.
MAX_REACH = 4096


@dataclass(frozen=True)
class Signature:
    """One regex over pasted text and the causes it points at, with weights."""

    id: str
    anchors: Tuple[str, ...]  # literals every match contains (the loader requires one)
    pattern: Pattern[str]
    causes: Tuple[Tuple[str, float], ...]
    unless: Tuple[str, ...] = ()
    reach: int = MAX_REACH  # the longest text the pattern can match, and the text its lookarounds read
    #: a named group (or the prefix of the names of alternative groups): the signature counts
    #: only when two of its matches name different values of it (two interpreters'
    #: site-packages in one report), compared without dots
    distinct: str = ""
    #: the literals each top-level alternative's matches contain: the regex runs only in
    #: windows that hold them (:mod:`dldoctor.explainer.literals`); () asks for nothing
    requires: Requirements = ()


def _nodes(parsed: Any) -> Iterator[Tuple[Any, Any]]:
    """Every (opcode, argument) of a parsed pattern, inside groups, branches and lookarounds."""
    for op, av in parsed:
        yield op, av
        stack = [av]
        while stack:
            item = stack.pop()
            if isinstance(item, SRE.SubPattern):
                yield from _nodes(item)
            elif isinstance(item, (list, tuple)):
                stack.extend(item)


def _repeat_bounds(parsed: Any) -> Iterator[int]:
    """The upper bound of every repeat in a parsed pattern, lookarounds included."""
    return (av[1] for op, av in _nodes(parsed) if op in REPEATS)


def _lookaround_widths(parsed: Any) -> Iterator[int]:
    """The longest text each lookahead or lookbehind in a parsed pattern can read."""
    return (int(av[1].getwidth()[1]) for op, av in _nodes(parsed) if op in (SRE.ASSERT, SRE.ASSERT_NOT))


def pattern_reach(pattern: str, flags: int = FLAGS) -> int:
    """The longest text ``pattern`` can match; ValueError when that is not bounded tightly
    enough for linear matching (an unbounded repeat, or past MAX_REPEAT / MAX_REACH)."""
    return _reach(SRE.parse(pattern, flags))


def _reach(parsed: Any) -> int:
    """:func:`pattern_reach` of a parsed pattern (the loader parses each pattern once)."""
    for bound in _repeat_bounds(parsed):
        if bound >= SRE.MAXREPEAT:
            raise ValueError("has an unbounded repeat (*, + or {n,}): bound it, e.g. {0,400}")
        if bound > MAX_REPEAT:
            raise ValueError(f"has a repeat of up to {bound}, more than {MAX_REPEAT}")
    width = int(parsed.getwidth()[1])
    if width > MAX_REACH:
        raise ValueError(f"can match {width} characters, more than {MAX_REACH}")
    # a lookahead or lookbehind reads text it does not match: the window around an anchor must
    # hold that too, or a lookahead past the match's end sees the window's edge, and "not
    # followed by" holds where the text does go on (at most MAX_REACH more: still bounded)
    return width + min(MAX_REACH, sum(_lookaround_widths(parsed)))


#: A pattern that can start with at most this many characters (case folded) gets a lookahead
#: on them in front: see :func:`with_first_chars`.
MAX_FIRST_CHARS = 24


def _first(parsed: Any) -> Tuple[Optional[Set[str]], bool]:
    """The characters a match of ``parsed`` can start with (None: any, or too many to list),
    and whether it can match the empty string. Zero-width items (``\\b``, ``^``, lookarounds)
    are skipped, which only widens the set: the answer is always a superset, never a guess."""
    out: Set[str] = set()
    for op, av in parsed:
        if op in ZERO_WIDTH:
            continue
        if op is SRE.LITERAL:
            return out | {chr(av)}, False
        if op is SRE.IN:
            for item, arg in av:
                if item is SRE.LITERAL:
                    out.add(chr(arg))
                elif item is SRE.RANGE and arg[1] - arg[0] < MAX_FIRST_CHARS:
                    out.update(map(chr, range(arg[0], arg[1] + 1)))
                else:  # a negated class, \w, \d ...
                    return None, False
            return out, False
        if op is SRE.SUBPATTERN:
            sub, nullable = _first(av[-1])
        elif op is SRE.BRANCH:
            sub, nullable = set(), False
            for alternative in av[1]:
                chars, empty = _first(alternative)
                if chars is None:
                    return None, False
                sub, nullable = sub | chars, nullable or empty
        elif op in REPEATS:
            sub, nullable = _first(av[2])
            nullable = nullable or av[0] == 0
        else:  # any character, a back-reference, a conditional
            return None, False
        if sub is None:
            return None, False
        out |= sub
        if not nullable:
            return out, False
    return out, True


def with_first_chars(pattern: str) -> str:
    """``pattern`` behind a lookahead on the characters its matches can start with, when they
    are few (2 to MAX_FIRST_CHARS, case folded).

    Why: ``re`` skips ahead to a literal or a character set only when the pattern starts with
    one and is case-sensitive. Our patterns are case-insensitive and often start with ``\\b``
    or a lookbehind and a branch of phrases, so ``re`` tries every alternative at every
    position of every window. One cheap class test first rejects most positions: 17% of
    the matching time of ``bench/bench_explain.py``. The lookahead is compiled with the same
    flags, so it folds case exactly as the literals it stands for; matches are unchanged
    (tests compare every signature with and without it on the whole corpus)."""
    return _wrapped(pattern, SRE.parse(pattern, FLAGS))


def _wrapped(pattern: str, parsed: Any) -> str:
    """:func:`with_first_chars` of a pattern already parsed."""
    chars, nullable = _first(parsed)
    folded = sorted({c.lower() for c in chars}) if chars and not nullable else []
    if not 2 <= len(folded) <= MAX_FIRST_CHARS:
        return pattern  # one literal: re already tests it as cheaply as a class would
    return "(?=[" + "".join(re.escape(c) for c in folded) + "])(?:" + pattern + ")"


_FIRST_CHARS = re.compile(r"\(\?=\[(?:\\.|[^\\\]])*\]\)\(\?:(?P<pattern>.*)\)", re.DOTALL)


def without_first_chars(pattern: str) -> str:
    """The pattern as written in the signature file, without the loader's lookahead."""
    m = _FIRST_CHARS.fullmatch(pattern)
    try:  # the inner text is the written pattern only if wrapping it gives this one back
        return m.group("pattern") if m and with_first_chars(m.group("pattern")) == pattern else pattern
    except re.error:  # "(?=[ab])(?:x)|(?:y)": the inner text is no pattern of its own
        return pattern


@dataclass(frozen=True)
class EvidenceRule:
    """A fact about the machine that multiplies one candidate's confidence."""

    slug: str
    fact: str
    values: Tuple[str, ...]
    negate: bool
    factor: float
    reason: str

    def applies(self, value: Optional[str]) -> bool:
        """True when the fact is known and matches (or, for ``is_not``, does not)."""
        if value is None:
            return False
        hit = any(_same_or_release_of(value, v) for v in self.values)
        return hit != self.negate


def _same_or_release_of(value: str, wanted: str) -> bool:
    """ "2.9.0+cpu" and "2.9.0.post1" count as 2.9.0; "2.9.10" does not."""
    value, wanted = value.lower(), wanted.lower()
    return value == wanted or value.startswith((wanted + "+", wanted + ".post"))


@dataclass(frozen=True)
class SignatureSet:
    """Everything ``explain`` knows about text: signatures and evidence rules."""

    signatures: Tuple[Signature, ...]
    evidence: Tuple[EvidenceRule, ...]
    #: error shapes (a failed import, a DLL / .so load) and their generic causes, used only
    #: when no signature fits well: explain is never silent on an import failure
    fallbacks: Tuple[Signature, ...] = ()


def _fail(where: str, msg: str) -> DataError:
    return DataError(f"signatures: {where}: {msg}")


def _parse_phrases(raw: Any) -> Dict[str, Tuple[str, ...]]:
    """The ``[phrases]`` table: one list per message, in every language it is met in, written
    once and named by ``<<name>>`` wherever a signature needs it (so no copy lags behind)."""
    if not isinstance(raw, dict):
        raise _fail("phrases", "must be a table name = [phrase, ...]")
    out: Dict[str, Tuple[str, ...]] = {}
    for name, phrases in raw.items():
        if not _PHRASE_REF.fullmatch(f"<<{name}>>"):
            raise _fail("phrases", f"{name!r}: names are lower-case letters and underscores")
        if not isinstance(phrases, list) or not phrases or not all(isinstance(x, str) and x.strip() for x in phrases):
            raise _fail("phrases", f"{name}: a non-empty list of non-blank strings")
        out[name] = tuple(phrases)
    return out


def _expand(sid: str, text: str, phrases: Mapping[str, Tuple[str, ...]]) -> str:
    """``text`` with each ``<<name>>`` replaced by an alternation of that list's phrases as
    literals, longest first (so a phrase is not cut short by one that begins it)."""

    def one(m: re.Match[str]) -> str:
        if m.group(1) not in phrases:
            raise _fail(sid, f"unknown phrase list <<{m.group(1)}>>")
        return "(?:" + "|".join(re.escape(x) for x in sorted(phrases[m.group(1)], key=len, reverse=True)) + ")"

    return _PHRASE_REF.sub(one, text)


def _expand_anchors(sid: str, anchors: List[Any], phrases: Mapping[str, Tuple[str, ...]]) -> List[Any]:
    """Anchor lists with each ``"<<name>>"`` entry replaced by its phrases, lowered."""
    out: List[Any] = []
    for a in anchors:
        m = _PHRASE_REF.fullmatch(a) if isinstance(a, str) else None
        if m is None:
            out.append(a)
        elif m.group(1) not in phrases:
            raise _fail(sid, f"unknown phrase list <<{m.group(1)}>>")
        else:
            lowered = {x.lower() for x in phrases[m.group(1)]}
            # a phrase that holds another is found wherever that one is: only the shortest count
            out += sorted(x for x in lowered if x not in out and not any(y != x and y in x for y in lowered))
    return out


def _parse_signature(raw: Any, slugs: Sequence[str], phrases: Mapping[str, Tuple[str, ...]]) -> Signature:
    if not isinstance(raw, dict):
        raise _fail("?", "each [[signature]] must be a table")
    sid = raw.get("id")
    if not isinstance(sid, str) or not _ID.match(sid):
        raise _fail(str(sid), "id must be kebab-case")
    unknown = set(raw) - _SIG_KEYS
    if unknown:
        raise _fail(sid, f"unknown keys {sorted(unknown)}")
    anchor, pattern = raw.get("anchor"), raw.get("pattern")
    anchors = [anchor] if isinstance(anchor, str) else anchor
    if isinstance(anchors, list):
        anchors = _expand_anchors(sid, anchors, phrases)
    if isinstance(pattern, str):
        pattern = _expand(sid, pattern, phrases)
    if (
        not isinstance(anchors, list)
        or not anchors
        or not all(isinstance(a, str) and a and a == a.lower() for a in anchors)
    ):
        raise _fail(sid, "anchor must be a non-empty lower-case string or list of them")
    if not isinstance(pattern, str) or not pattern:
        raise _fail(sid, "pattern must be a non-empty string")
    # one parse serves the reach and the first characters, and one compile the matcher
    try:
        parsed = SRE.parse(pattern, FLAGS)
        compiled = re.compile(_wrapped(pattern, parsed), FLAGS)
    except re.error:  # an invalid pattern, or one the wrapper cannot hold (global inline flags)
        try:
            compiled = re.compile(pattern, FLAGS)
        except re.error as exc:
            raise _fail(sid, f"pattern does not compile: {exc}") from None
        parsed = SRE.parse(pattern, FLAGS)
    try:
        reach = _reach(parsed)
    except ValueError as exc:
        raise _fail(sid, f"pattern {exc}") from None
    causes = raw.get("causes")
    if not isinstance(causes, dict) or not causes:
        raise _fail(sid, "causes must be a non-empty table slug = weight")
    pairs: List[Tuple[str, float]] = []
    for slug, weight in causes.items():
        if slug not in slugs:
            raise _fail(sid, f"unknown condition slug {slug!r}")
        if not isinstance(weight, (int, float)) or isinstance(weight, bool):
            raise _fail(sid, f"weight of {slug} must be a number")
        if not 0.0 < float(weight) <= 1.0:
            raise _fail(sid, f"weight of {slug} must be in (0, 1]")
        pairs.append((slug, float(weight)))
    unless = raw.get("unless", [])
    if not isinstance(unless, list) or not all(isinstance(u, str) for u in unless):
        raise _fail(sid, "unless must be a list of signature ids")
    distinct = raw.get("distinct", "")
    if not isinstance(distinct, str) or (distinct and not any(g.startswith(distinct) for g in compiled.groupindex)):
        raise _fail(sid, "distinct must name a group of the pattern")
    return Signature(sid, tuple(anchors), compiled, tuple(pairs), tuple(unless), reach, distinct, requirements(parsed))


def _parse_evidence(raw: Any, slugs: Sequence[str]) -> EvidenceRule:
    if not isinstance(raw, dict):
        raise _fail("evidence", "each [[evidence]] must be a table")
    where = f"evidence for {raw.get('slug')}"
    unknown = set(raw) - _EVIDENCE_KEYS
    if unknown:
        raise _fail(where, f"unknown keys {sorted(unknown)}")
    if raw.get("slug") not in slugs:
        raise _fail(where, "unknown condition slug")
    if raw.get("fact") not in FACTS:
        raise _fail(where, f"fact must be one of {FACTS}")
    if ("is" in raw) == ("is_not" in raw):
        raise _fail(where, "give exactly one of is / is_not")
    values = raw.get("is", raw.get("is_not"))
    if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
        raise _fail(where, "is / is_not must be a non-empty list of strings")
    factor = raw.get("factor")
    if not isinstance(factor, (int, float)) or isinstance(factor, bool) or not 0 < factor <= 5:
        raise _fail(where, "factor must be a number in (0, 5]")
    reason = raw.get("reason")
    if not isinstance(reason, str) or not reason:
        raise _fail(where, "reason must be a non-empty string")
    return EvidenceRule(raw["slug"], raw["fact"], tuple(values), "is_not" in raw, float(factor), reason)


def parse_signatures(data: Mapping[str, Any], slugs: Sequence[str]) -> SignatureSet:
    """Validate a whole signatures document against the known condition slugs."""
    if data.get("schema_version") != 1:
        raise _fail("file", "schema_version must be 1")
    unknown = set(data) - {"schema_version", "phrases", "signature", "evidence", "fallback"}
    if unknown:
        raise _fail("file", f"unknown top-level keys {sorted(unknown)}")
    raw_sigs = data.get("signature")
    if not isinstance(raw_sigs, list) or not raw_sigs:
        raise _fail("file", "no [[signature]] tables")
    phrases = _parse_phrases(data.get("phrases", {}))
    sigs = tuple(_parse_signature(r, slugs, phrases) for r in raw_sigs)
    ids = [s.id for s in sigs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise _fail("file", f"duplicate signature ids {sorted(dup)}")
    for sig in sigs:
        missing = set(sig.unless) - set(ids)
        if missing:
            raise _fail(sig.id, f"unless names unknown signatures {sorted(missing)}")
    rules = tuple(_parse_evidence(r, slugs) for r in data.get("evidence", []))
    fallbacks = tuple(_parse_signature(r, slugs, phrases) for r in data.get("fallback", []))
    clash = {f.id for f in fallbacks} & set(ids)
    if clash or len({f.id for f in fallbacks}) != len(fallbacks):
        raise _fail("file", f"fallback ids must be unique and differ from signature ids {sorted(clash)}")
    if not all(f.id.startswith("shape-") for f in fallbacks):
        raise _fail("file", "fallback ids start with shape- (an error shape, not a cause)")
    if any(f.unless for f in fallbacks):
        raise _fail("file", "a fallback has no unless: it applies only when no signature fits")
    return SignatureSet(sigs, rules, fallbacks)


@lru_cache(maxsize=1)
def load_signatures() -> SignatureSet:
    """The packaged signatures, validated once per process."""
    slugs = [c.slug for c in conditions.all_conditions()]
    return parse_signatures(conditions.load_toml("signatures.toml"), slugs)
