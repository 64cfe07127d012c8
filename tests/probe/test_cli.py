"""``dldoctor probe`` end to end, as a user runs it (a real subprocess of the CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..conftest import run_dldoctor


def _cli(*args, env=None):
    return run_dldoctor("probe", *args, env=env)


@pytest.fixture(scope="module")
def conflict_json(probe_site):
    done = _cli("ext_a", "ext_b", "ext_abort", "--orders", "--format", "json", "--timeout", "20",
                env=probe_site.env)
    return done


def test_json_report_with_findings_like_check(conflict_json):
    import jsonschema

    assert conflict_json.returncode == 1, conflict_json.stderr
    doc = json.loads(conflict_json.stdout)
    schema = Path(__file__).parents[2] / "src/dldoctor/render/report.schema.json"
    jsonschema.validate(doc, json.loads(schema.read_text()))
    assert doc["schema_version"] == 1 and doc["platform"] == "linux"
    slugs = [f["slug"] for f in doc["findings"]]
    assert "import-order-conflict" in slugs
    f = doc["findings"][slugs.index("import-order-conflict")]
    assert f["code"].startswith("DLD") and f["observed"] is True
    assert f["message"].startswith("ext_a before ext_b fails, ext_b before ext_a works")
    facts = {e["label"]: e["value"] for e in doc["facts"]}
    assert facts["import ext_a"].startswith("ok in ")
    assert facts["import ext_abort"] == "crashed (SIGABRT (signal 6))"
    assert facts["order ext_a,ext_b"].startswith("ImportError: ")


def test_pairs_include_the_crashing_module_without_killing_dldoctor(conflict_json):
    doc = json.loads(conflict_json.stdout)
    crashed = [e for e in doc["facts"]
               if e["label"].startswith("order ") and e["value"].startswith("crashed")]
    assert len(crashed) == 4  # ext_abort with each of two others, both orders


def test_text_output_shows_results_and_the_fix(probe_site):
    done = _cli("ext_a", "ext_b", "--orders", "--libs", env=probe_site.env)
    assert done.returncode == 1
    out = done.stdout
    assert "order ext_a,ext_b: ImportError: " in out
    assert "import-order-conflict (DLD" in out
    assert "ext_a before ext_b fails, ext_b before ext_a works" in out
    assert "fix: import ext_b before ext_a" in out
    assert "  pkg_a: " in out and "ext_a.libs/libconflict.so.1" in out
    home = str(Path.home())
    assert home == "/" or home not in out  # home is shown as ~


def test_clean_run_exits_zero(probe_site):
    done = _cli("ext_a", "--no-gpu", env=probe_site.env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "import ext_a: ok in " in done.stdout and "0 error(s)" in done.stdout


def test_bad_interpreter_is_one_line_and_exit_2(tmp_path):
    done = _cli("--python", str(tmp_path / "missing-python"), "json")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"dldoctor: no Python interpreter at {tmp_path / 'missing-python'}: no such file"]


def test_bad_timeout_is_bad_usage():
    done = _cli("json", "--timeout", "0")
    assert done.returncode == 2 and "positive" in done.stderr
