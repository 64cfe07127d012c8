"""JSON: the stable machine-readable contract (DESIGN §7) of every command that has one. The
report of check / probe / wheels is described by report.schema.json, which the tests validate
every rendering against; explain's document by explain.schema.json."""

from __future__ import annotations

import json
from typing import Any, Dict, List

from dldoctor import conditions
from dldoctor._version import __version__
from dldoctor.explainer.redact import redact
from dldoctor.explainer.report import ExplainReport, message, subject
from dldoctor.loader.graph import LoadGraph
from dldoctor.model import Finding, Report, Severity

SCHEMA_VERSION = 1
EXPLAIN_SCHEMA_VERSION = 1
DEPS_SCHEMA_VERSION = 1


def finding_dict(f: Finding) -> Dict[str, Any]:
    return {
        "code": f.condition.code,
        "slug": f.condition.slug,
        "severity": f.level.label,
        "title": f.condition.title,
        "message": f.message,
        "evidence": [{"label": e.label, "value": e.value} for e in f.evidence],
        "fix": f.fix,
        "observed": f.observed,
    }


def report_dict(report: Report) -> Dict[str, Any]:
    checks: List[Dict[str, Any]] = []
    for r in report.results:
        status = "failed" if r.findings else ("skipped" if r.skipped else "passed")
        checks.append({"code": r.condition.code, "slug": r.condition.slug, "status": status,
                       **({"reason": r.skipped} if r.skipped else {})})
    findings = sorted(report.findings, key=lambda f: (-f.level, f.condition.code))
    return {
        "schema_version": SCHEMA_VERSION,
        "dldoctor_version": __version__,
        "target": report.target,
        "platform": report.platform,
        "facts": [{"label": e.label, "value": e.value} for e in report.facts],
        "findings": [finding_dict(f) for f in findings],
        "checks": checks,
        "summary": {s.label: sum(1 for f in findings if f.level == s) for s in Severity},
        "errors": list(report.errors),
    }


def render_json(report: Report) -> str:
    return json.dumps(report_dict(report), indent=2, ensure_ascii=False) + "\n"


def explain_dict(report: ExplainReport) -> Dict[str, Any]:
    """`dldoctor explain --format json` (DESIGN §7): schema_version and diagnoses, best first."""
    diagnoses: List[Dict[str, Any]] = []
    for cand in report.shown:
        cond = conditions.get(cand.slug)
        diagnoses.append(
            {
                "code": cond.code,
                "slug": cond.slug,
                "title": cond.title,
                "confidence": cand.confidence,
                "message": message(cand),
                "matched": [{"line": h.line, "text": redact(h.text), "signature": h.signature} for h in cand.hits],
                "subject": subject(cand),
                "evidence": [{"label": k, "value": redact(v)} for k, v in cand.evidence],
                "explanation": cond.summary,
                "fix": cond.fix_for(report.platform),
                "confirm": cond.confirm,
            }
        )
    return {
        "schema_version": EXPLAIN_SCHEMA_VERSION,
        "input": {"lines": report.lines},
        "platform": report.platform,
        "machine": report.machine,
        "notes": list(report.notes),
        "diagnoses": diagnoses,
    }


def render_explain_json(report: ExplainReport) -> str:
    return json.dumps(explain_dict(report), indent=2, ensure_ascii=False) + "\n"


def deps_dict(graph: LoadGraph) -> Dict[str, object]:
    """`dldoctor deps --format json` (DESIGN §7): every transitive dependency once."""
    return {
        "schema_version": DEPS_SCHEMA_VERSION,
        "root": graph.root,
        "platform": graph.platform,
        "error": graph.error,
        "dependencies": [
            {
                "name": e.resolution.name,
                "path": e.resolution.path,
                "rule": e.resolution.rule,
                "requested_by": e.requester,
                "tried": list(e.resolution.tried),
                "shadowed": list(e.resolution.shadowed),
            }
            for e in graph.unique()
        ],
        "notes": list(graph.notes),
        "unreadable": [{"path": p, "error": why} for p, why in graph.unreadable],
    }
