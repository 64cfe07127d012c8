"""Turn ranked candidates into what users read: one answer line first, then details.

Both renderings come from one :class:`ExplainReport` value; matched lines are redacted here,
at the only place they leave the program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from dldoctor import conditions
from dldoctor.explainer.match import Candidate, Hit, squeeze
from dldoctor.explainer.redact import redact
from dldoctor.explainer.signatures import SignatureSet
from dldoctor.explainer.weigh import Facts
from dldoctor.model import Diagnosis, Evidence

SCHEMA_VERSION = 1
MIN_SHOWN = 0.05  # candidates below this are noise, not diagnoses

_STRONG = (
    ("windows", re.compile(r"\[WinError \d+\]|\bDLL load failed|\.dll\b|\.pyd\b")),
    ("macos", re.compile(r"\.dylib\b|\bdyld\b|-darwin\.so\b")),
    ("linux", re.compile(r"\.so(?:\.\d+)*:|-linux-gnu\.so\b|\bGLIBC(?:XX)?_\d")),
)
_WEAK = (
    ("windows", re.compile(r"[A-Za-z]:\\|\\site-packages\\")),
    ("macos", re.compile(r"/Users/|/Library/Frameworks/")),
    ("linux", re.compile(r"/home/|/usr/(?:local/)?lib|/opt/conda")),
)


def text_platform(text: str) -> Optional[str]:
    """The OS the text unmistakably comes from (a WinError, a .dylib, an ELF .so), if any."""
    for name, pattern in _STRONG:
        if pattern.search(text):
            return name
    return None


def infer_platform(text: str, facts: Facts) -> str:
    """The platform whose fix to show: the text's when it is unmistakable, else the
    machine's, else what the text's paths suggest."""
    strong = text_platform(text)
    if strong:
        return strong
    if facts.os in ("windows", "linux", "macos"):
        return facts.os
    for name, pattern in _WEAK:
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


def _hit_line(hit: Hit) -> str:
    return f"line {hit.line}: {squeeze(redact(hit.text))}"


def _subject(cand: Candidate) -> Dict[str, str]:
    subject: Dict[str, str] = {}
    for hit in cand.hits:
        for key, value in hit.subject:
            subject.setdefault(key, redact(value))
    return subject


def _message(cand: Candidate) -> str:
    cond = conditions.get(cand.slug)
    subj = _subject(cand)
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
                matched=tuple(_hit_line(h) for h in cand.hits),
                evidence=tuple(Evidence(k, redact(v)) for k, v in cand.evidence),
                fix=cond.fix_for(report.platform),
            )
        )
    return tuple(out)


def render_json(report: ExplainReport, sigs: SignatureSet) -> Dict[str, Any]:
    """The JSON document (DESIGN §7): schema_version and diagnoses, best first."""
    diagnoses: List[Dict[str, Any]] = []
    for cand in report.shown:
        cond = conditions.get(cand.slug)
        diagnoses.append(
            {
                "code": cond.code,
                "slug": cond.slug,
                "title": cond.title,
                "confidence": cand.confidence,
                "message": _message(cand),
                "matched": [{"line": h.line, "text": redact(h.text), "signature": h.signature} for h in cand.hits],
                "subject": _subject(cand),
                "evidence": [{"label": k, "value": redact(v)} for k, v in cand.evidence],
                "explanation": cond.summary,
                "fix": cond.fix_for(report.platform),
                "confirm": cond.confirm,
            }
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "input": {"lines": report.lines},
        "platform": report.platform,
        "machine": report.machine,
        "notes": list(report.notes),
        "diagnoses": diagnoses,
    }


def _pct(conf: float) -> str:
    return f"{round(conf * 100):d}%"


def render_text(report: ExplainReport, sigs: SignatureSet, limit: Optional[int] = 3) -> str:
    """Answer first in one line, then for each candidate: lines, meaning, fix, confirm."""
    shown = report.shown[:limit] if limit else report.shown
    rest = report.shown[len(shown) :]
    if not shown:
        return f"dldoctor explain: no known condition matched ({report.lines} lines read)\n"
    best = shown[0]
    cond = conditions.get(best.slug)
    out = [f"{cond.code} {cond.slug} ({_pct(best.confidence)}): {_message(best)}"]
    others = ", ".join(f"{c.slug} {_pct(c.confidence)}" for c in (*shown[1:], *rest))
    if others:
        out.append(f"  other candidates: {others}")
    for i, cand in enumerate(shown, 1):
        cond = conditions.get(cand.slug)
        out.append("")
        out.append(f"{i}. {cond.code} {cond.slug}  confidence {_pct(cand.confidence)}")
        out.append(f"   {cond.title}")
        for hit in cand.hits[:3]:
            out.append(f"   matched  {_hit_line(hit)}")
        for label, value in cand.evidence:
            out.append(f"   evidence {label}: {redact(value)}")
        out.append(f"   means    {cond.summary}")
        out.append(f"   fix      {cond.fix_for(report.platform)}")
        out.append(f"   confirm  {cond.confirm}")
    out.append("")
    out.append(f"machine facts: {report.machine}; fixes shown for: {report.platform}")
    out.extend(f"note: {n}" for n in report.notes)
    return "\n".join(out) + "\n"
