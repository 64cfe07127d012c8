"""Render a LintResult as ruff-style text, JSON (``schema_version`` 1) or SARIF 2.1.0.

Renderers return strings; only ``dldoctor.cli`` prints.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from dldoctor import conditions
from dldoctor._version import __version__
from dldoctor.lint.model import LintFinding, LintResult
from dldoctor.lint.runner import RULE_SLUGS

SCHEMA_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def where(f: LintFinding) -> str:
    """``path:line:col`` (``path:cell N:line:col`` in notebooks, as ruff writes it)."""
    cell = f"cell {f.cell}:" if f.cell is not None else ""
    return f"{f.path}:{cell}{f.line}:{f.col}"


def render_text(result: LintResult, verbose: bool = False) -> str:
    lines: List[str] = []
    for f in result.findings:
        lines.append(f"{where(f)}: {f.condition.code} {f.message}")
        if verbose:
            lines.append(f"  = fix: {f.fix}")
    if result.findings:
        n = len(result.findings)
        lines.append(f"Found {n} finding{'s' if n != 1 else ''}.")
    return "\n".join(lines) + ("\n" if lines else "")


def finding_dict(f: LintFinding) -> Dict[str, Any]:
    return {
        "code": f.condition.code,
        "slug": f.condition.slug,
        "severity": f.condition.severity.label,
        "message": f.message,
        "fix": f.fix,
        "evidence": [{"label": e.label, "value": e.value} for e in f.evidence],
        "path": f.path,
        "line": f.line,
        "col": f.col,
        "cell": f.cell,
    }


def render_json(result: LintResult) -> str:
    doc = {
        "schema_version": SCHEMA_VERSION,
        "files": result.files,
        "findings": [finding_dict(f) for f in result.findings],
        "errors": [{"path": p, "message": m} for p, m in result.errors],
        "warnings": [{"path": p, "message": m} for p, m in result.warnings],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _uri(path: str) -> str:
    return path.replace("\\", "/")


def render_sarif(result: LintResult) -> str:
    rules = [conditions.get(slug) for slug in RULE_SLUGS]
    index = {c.code: i for i, c in enumerate(rules)}
    results = []
    for f in result.findings:
        region: Dict[str, Any] = {"startLine": f.line, "startColumn": f.col}
        res: Dict[str, Any] = {
            "ruleId": f.condition.code,
            "ruleIndex": index[f.condition.code],
            "level": _SARIF_LEVEL[f.condition.severity.label],
            "message": {"text": f"{f.message}. Fix: {f.fix}"},
            "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": _uri(f.path)}, "region": region}}
            ],
        }
        if f.cell is not None:
            res["properties"] = {"cell": f.cell}
        results.append(res)
    driver = {
        "name": "dldoctor",
        "version": __version__,
        "informationUri": "https://pypi.org/project/dldoctor/",
        "rules": [
            {
                "id": c.code,
                "name": c.slug,
                "shortDescription": {"text": c.title},
                "fullDescription": {"text": c.summary},
                "help": {"text": c.fix_for("any")},
                "helpUri": c.references[0].url,
                "defaultConfiguration": {"level": _SARIF_LEVEL[c.severity.label]},
            }
            for c in rules
        ],
    }
    notifications = [{"level": "error", "message": {"text": f"{p}: {m}"}} for p, m in result.errors]
    run: Dict[str, Any] = {
        "tool": {"driver": driver},
        "results": results,
        "invocations": [
            {"executionSuccessful": not result.errors, "toolExecutionNotifications": notifications}
        ],
    }
    doc = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
