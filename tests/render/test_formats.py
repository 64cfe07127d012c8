"""Each renderer turns one value into one format; the JSON ones follow the schemas in
src/dldoctor/render/ (the contract outside tools rely on)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from dldoctor import conditions
from dldoctor.explainer import diagnose_text
from dldoctor.model import Severity
from dldoctor.render import FORMATS, renderer
from dldoctor.render.json import explain_dict
from dldoctor.render.markdown import render_rule_page, render_rules_index
from dldoctor.render.text import render_explain, render_rules
from dldoctor.report import build_report

from ..builders import distribution, snapshot

SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "dldoctor" / "render"
WINERROR = ('OSError: [WinError 126] The specified module could not be found. Error loading '
            '"C:\\Users\\alice\\env\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.')


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    """A report with an error and a warning: two copies of one distribution, one pip over conda."""
    snap = snapshot(distributions=(distribution("numpy", "1.26.4"), distribution("numpy", "2.1.0", installer="pip")),
                    conda_packages=("numpy",))
    return build_report(snap)


def test_every_report_format_renders(report) -> None:  # type: ignore[no-untyped-def]
    for fmt in FORMATS:
        out = renderer(fmt)(report)
        assert out.endswith("\n") and "duplicate-install" in out


def test_report_json_follows_its_schema(report) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(renderer("json")(report))
    jsonschema.validate(doc, json.loads((SCHEMAS / "report.schema.json").read_text(encoding="utf-8")))
    assert doc["summary"]["error"] == sum(1 for f in report.findings if f.level == Severity.ERROR)


def test_text_groups_by_severity_without_colour_when_asked(report) -> None:  # type: ignore[no-untyped-def]
    from dldoctor.render.text import render_text

    out = render_text(report, color=False)
    assert "\033[" not in out and out.index("[✗]") < out.index("[!]")


def test_explain_json_follows_its_schema_and_redacts() -> None:
    doc = explain_dict(diagnose_text(WINERROR))
    jsonschema.validate(doc, json.loads((SCHEMAS / "explain.schema.json").read_text(encoding="utf-8")))
    assert "alice" not in json.dumps(doc) and doc["diagnoses"][0]["confirm"]


def test_explain_text_answers_first() -> None:
    out = render_explain(diagnose_text(WINERROR))
    first = out.splitlines()[0]
    assert first.startswith("DLD") and "c10.dll" in first and "alice" not in out


def test_rules_list_and_pages() -> None:
    conds = conditions.all_conditions()
    assert len(render_rules(conds).splitlines()) == len(conds)
    page = render_rule_page(conds[0], ("check", "explain"))
    assert page.startswith(f"# {conds[0].slug} ({conds[0].code})") and "## Detected by" in page
    index = render_rules_index(conds, {conds[0].slug: ("check",)})
    assert f"| {conds[0].code} |" in index and index.count("\n| DLD") == len(conds)


def test_the_pointer_names_a_finding_to_fix_never_an_info(report) -> None:  # type: ignore[no-untyped-def]
    """"More on each: dldoctor rules X" points at an error or warning; a report of infos only
    (a healthy set with two OpenMP pools by design) ends at its counts."""
    from dataclasses import replace

    assert "More on each: dldoctor rules duplicate-install" in renderer("text")(report)
    quiet = replace(report, results=[replace(r, findings=[replace(f, severity=Severity.INFO) for f in r.findings])
                                     for r in report.results])
    out = renderer("text")(quiet)
    assert out.rstrip().endswith("0 error(s), 0 warning(s)") and "More on each" not in out
