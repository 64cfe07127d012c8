"""``explain``: from a pasted error message to its likely causes and their fixes.

Pipeline: signatures (text) -> candidates -> weighed with machine facts and check results
-> report. Each step is a pure function over values, so the CLI is only I/O around them.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from dldoctor.explainer.match import Candidate, Hit, is_fallback, match_text
from dldoctor.explainer.pins import weigh_pins
from dldoctor.explainer.platform import text_platform
from dldoctor.explainer.report import ExplainReport, infer_platform, to_diagnoses
from dldoctor.explainer.signatures import SignatureSet, load_signatures
from dldoctor.explainer.weigh import Facts, facts_from_mapping, facts_from_snapshot, weigh_facts
from dldoctor.explainer.words import cap_words, with_words
from dldoctor.model import CheckResult, Diagnosis

__all__ = [
    "Candidate",
    "ExplainReport",
    "Facts",
    "Hit",
    "diagnose_text",
    "explain",
    "facts_from_mapping",
    "facts_from_snapshot",
    "load_signatures",
]

#: typographic quotes and spaces that forums, chat apps and word processors put into a pasted
#: error, read as the plain characters every message is written with: one table, one character
#: for one character (lines and positions stay where they were), instead of every pattern
#: spelling ‘’ and “” beside ' and "
PLAIN = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ",
})

FALLBACK_NOTE = (
    "no rule fits this text well: these are the usual causes of this kind of failure, or the causes "
    "of confirmed reports that share its words, with low confidence. To tell them apart, run "
    "`dldoctor check` in the environment that failed (reads "
    "it without importing anything) and `dldoctor probe` (imports each framework in a "
    "supervised subprocess and names the library that fails)"
)


def diagnose_text(
    text: str,
    facts: Optional[Facts] = None,
    results: Sequence[CheckResult] = (),
    sigs: Optional[SignatureSet] = None,
    machine: str = "not used",
    notes: Sequence[str] = (),
    words: bool = True,
) -> ExplainReport:
    """Match, weigh and package one text; the value both renderers and the API use
    (``words``: add word evidence, :mod:`dldoctor.explainer.words`)."""
    text = text.translate(PLAIN)
    sigs = sigs or load_signatures()
    facts = facts or Facts()
    notes = list(notes)
    origin = text_platform(text)
    if facts.os and origin and origin != facts.os:
        # a log pasted from another machine: this machine's facts say nothing about it
        notes.append(f"the text comes from {origin}, not this {facts.os} machine: machine facts not used")
        facts, results, machine = Facts(), (), "not used (text from another OS)"
    cands: Tuple[Candidate, ...] = match_text(text, sigs)
    if words:
        cands = with_words(cands, text)
    # a failed pin read against the wheel table: is the Python the reason (text or machine)
    cands = weigh_pins(cands, text, facts)
    if facts.known or results:
        # the machine's facts weigh word leads too (a 32-bit Python, the OS), but never past CAP
        cands = cap_words(weigh_facts(cands, facts, results, sigs, text))
    if cands and is_fallback(cands[0]):
        notes.append(FALLBACK_NOTE)
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return ExplainReport(cands, infer_platform(text, facts), lines, machine, tuple(notes))


def explain(text: str, snapshot: Any = None, results: Sequence[CheckResult] = ()) -> Tuple[Diagnosis, ...]:
    """Library entry point: likely causes of ``text``, best first, as Diagnosis values."""
    return to_diagnoses(diagnose_text(text, facts_from_snapshot(snapshot), results))
