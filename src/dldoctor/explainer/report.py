"""The value explain produces: ranked candidates as an :class:`ExplainReport`, and the words
each candidate is shown with (``hit_line``, ``subject``, ``message``: matched text redacted here,
before it can leave the program). The text and JSON renderings live in :mod:`dldoctor.render`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Tuple

from dldoctor import conditions
from dldoctor.explainer.match import Candidate, Hit, squeeze
from dldoctor.explainer.platform import WEAK, text_platform
from dldoctor.explainer.redact import redact
from dldoctor.explainer.weigh import Facts
from dldoctor.model import Diagnosis, Evidence

MIN_SHOWN = 0.05  # candidates below this are noise, not diagnoses

def infer_platform(text: str, facts: Facts) -> str:
    """The platform whose fix to show: the text's when it is unmistakable, else the
    machine's, else what the text's paths suggest."""
    strong = text_platform(text)
    if strong:
        return strong
    if facts.os in ("windows", "linux", "macos"):
        return facts.os
    for name, pattern in WEAK:
        if pattern.search(text):
            return name
    return "any"


@dataclass(frozen=True)
class ExplainReport:
    """The outcome of one explain run, ready to render."""

    candidates: Tuple[Candidate, ...]
    platform: str
    lines: int
    machine: str  # "this machine" | "snapshot FILE" | "not used"
    notes: Tuple[str, ...] = ()

    @property
    def shown(self) -> Tuple[Candidate, ...]:
        return tuple(c for c in self.candidates if c.confidence >= MIN_SHOWN)


def hit_line(hit: Hit) -> str:
    return f"line {hit.line}: {squeeze(redact(hit.text))}"


def subject(cand: Candidate) -> Dict[str, str]:
    subject: Dict[str, str] = {}
    for hit in cand.hits:
        for key, value in hit.subject:
            subject.setdefault(key, redact(value))
    return subject


def message(cand: Candidate) -> str:
    cond = conditions.get(cand.slug)
    subj = subject(cand)
    named = subj.get("lib") or subj.get("symbol") or subj.get("version") or subj.get("module")
    return f"{cond.title} ({named})" if named else cond.title


def to_diagnoses(report: ExplainReport) -> Tuple[Diagnosis, ...]:
    """The public value type (model.Diagnosis) for library callers."""
    out: List[Diagnosis] = []
    for cand in report.shown:
        cond = conditions.get(cand.slug)
        out.append(
            Diagnosis(
                condition=cond,
                confidence=cand.confidence,
                matched=tuple(hit_line(h) for h in cand.hits),
                evidence=tuple(Evidence(k, redact(v)) for k, v in cand.evidence),
                fix=cond.fix_for(report.platform),
            )
        )
    return tuple(out)
