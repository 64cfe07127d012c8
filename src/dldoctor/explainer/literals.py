"""The literals every match of a pattern contains: what a regex is asked for before it runs.

A signature's regex runs only in the windows around its anchors (:mod:`dldoctor.explainer.match`),
but anchors such as "dll load failed" or "import" occur in many logs, and most signatures
anchored there then match nothing: their pattern also needs "cmake", "built from source" or
"imported before" nearby. Python's ``re`` has no literal prefilter of its own (RE2, Hyperscan and
ripgrep do), so it tries such a pattern at every position of every window, at 30 to 120 ns a
character, where a C-level substring search costs under 1 ns. So each pattern's top-level
alternatives are read once, at load, for the literals every match of them must contain, and
the regex runs only where, for one alternative, each of its clauses has a literal in the
windows. A missing literal proves there is no match; a present one proves nothing.

Only what is certain is kept: a literal is a run of ASCII characters the pattern matches
literally (lowered: the windows are searched in the text as :func:`~dldoctor.explainer.anchors.fold`
lowers it, and patterns are case-insensitive), required at least once (not under ``?``, ``*``
or ``{0,n}``); a group of alternatives requires one literal of each; anything else (a class,
``.``, a back-reference) ends a run without claiming anything.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, List, Tuple

#: ``re``'s parser (a private module whose name changed in 3.11), shared with the loader
SRE: Any = importlib.import_module("re._parser" if hasattr(re, "_parser") else "sre_parse")
REPEATS = tuple(getattr(SRE, n) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(SRE, n))
ZERO_WIDTH = (SRE.AT, SRE.ASSERT, SRE.ASSERT_NOT)

#: one clause: a match contains at least one of these literals
Clause = Tuple[str, ...]
#: per top-level alternative, the clauses all of which its matches satisfy; () when some
#: alternative requires nothing (then nothing can be ruled out before the regex runs)
Requirements = Tuple[Tuple[Clause, ...], ...]

MIN_LITERAL = 3  # shorter literals occur almost everywhere: asking for them costs, saves nothing
MAX_OPTIONS = 16  # a clause of more literals than this costs more searches than it saves
MAX_CLAUSES = 3  # per alternative: the most telling ones (longest shortest literal) are asked


def _clauses(parsed: Any) -> List[Clause]:
    """The clauses every match of the sequence ``parsed`` satisfies."""
    out: List[Clause] = []
    run: List[str] = []

    def flush() -> None:
        if len(run) >= MIN_LITERAL:
            out.append(("".join(run).lower(),))
        run.clear()

    for op, av in parsed:
        if op is SRE.LITERAL and av < 128:
            run.append(chr(av))
            continue
        if op in ZERO_WIDTH:  # consumes nothing: the characters around it are adjacent
            continue
        flush()
        if op is SRE.SUBPATTERN:
            out.extend(_clauses(av[-1]))
        elif op is SRE.BRANCH:
            out.extend(_either(av[1]))
        elif op in REPEATS and av[0] >= 1:
            out.extend(_clauses(av[2]))
    flush()
    return out


def _either(alternatives: Any) -> List[Clause]:
    """One clause for a group of alternatives: the best clause of each, joined; none when an
    alternative requires nothing or the clause would be too wide."""
    best: List[Clause] = []
    for alternative in alternatives:
        clauses = _clauses(alternative)
        if not clauses:
            return []
        best.append(max(clauses, key=lambda c: (min(map(len, c)), -len(c))))
    options = tuple(sorted({lit for clause in best for lit in clause}))
    return [options] if len(options) <= MAX_OPTIONS else []


def _top_alternatives(parsed: Any) -> List[Any]:
    """The pattern's top-level alternatives, through the loader's first-characters lookahead
    and any group that wraps the whole pattern."""
    items = list(parsed)
    while items:
        if items[0][0] in ZERO_WIDTH:
            items = items[1:]
        elif len(items) == 1 and items[0][0] is SRE.SUBPATTERN:
            items = list(items[0][1][-1])
        else:
            break
    if len(items) == 1 and items[0][0] is SRE.BRANCH:
        return list(items[0][1][1])
    return [items]


def requirements(parsed: Any) -> Requirements:
    """What each top-level alternative of a parsed pattern (``re``'s parser, which the loader
    runs once per pattern) requires; see the module's docstring."""
    out = []
    for alternative in _top_alternatives(parsed):
        clauses = sorted(set(_clauses(alternative)), key=lambda c: (-min(map(len, c)), c))
        if not clauses:
            return ()
        out.append(tuple(clauses[:MAX_CLAUSES]))
    return tuple(out)
