"""The CLI contract: exit codes, one-line errors, formats, redaction."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from ..conftest import ROOT, run_dldoctor

SCHEMA = json.loads((ROOT / "src/dldoctor/render/report.schema.json").read_text())


def one_line_error(done, code: int = 2) -> str:  # type: ignore[no-untyped-def]
    assert done.returncode == code, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("dldoctor:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_missing_interpreter_is_one_line_exit_2(tmp_path: Path) -> None:
    line = one_line_error(run_dldoctor("check", "--python", str(tmp_path / "nope" / "python")))
    assert "no such file" in line


def test_non_python_executable_is_one_line_exit_2() -> None:
    line = one_line_error(run_dldoctor("check", "--python", "/bin/true"))
    assert "not a Python" in line


def test_corrupt_snapshot_file_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "snap.json"
    bad.write_text('{"schema_version": 1, "interpreter": {"bits": "sixty-four"}}')
    assert "not a dldoctor snapshot" in one_line_error(run_dldoctor("check", "--snapshot", str(bad)))
    bad.write_text("{truncated")
    assert "not a dldoctor snapshot" in one_line_error(run_dldoctor("check", "--snapshot", str(bad)))
    assert "cannot read" in one_line_error(run_dldoctor("check", "--snapshot", str(tmp_path / "missing.json")))


def test_unknown_rule_and_unknown_selection_exit_2() -> None:
    assert "unknown rule" in one_line_error(run_dldoctor("rules", "DLD999"))
    assert "unknown condition" in one_line_error(run_dldoctor("check", "--select", "no-such-slug"))


def test_bad_option_exits_2_with_usage() -> None:
    done = run_dldoctor("check", "--format", "yaml")
    assert done.returncode == 2 and "usage:" in done.stderr and "Traceback" not in done.stderr


def test_bare_dldoctor_runs_check_and_json_matches_schema(tmp_path: Path) -> None:
    done = run_dldoctor("--format", "json", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    jsonschema.validate(report, SCHEMA)
    assert report["schema_version"] == 1
    assert {c["slug"] for c in report["checks"]} >= {"shadowed-module", "corrupt-install"}


def test_snapshot_round_trip_gives_the_same_verdicts(tmp_path: Path) -> None:
    (tmp_path / "numpy.py").write_text("# shadows nothing unless numpy is installed\n")
    snap = tmp_path / "snap.json"
    assert run_dldoctor("snapshot", "-o", str(snap), cwd=tmp_path).returncode == 0
    live = json.loads(run_dldoctor("check", "--format", "json", cwd=tmp_path).stdout)
    judged = json.loads(run_dldoctor("check", "--format", "json", "--snapshot", str(snap)).stdout)
    assert [(f["slug"], f["message"]) for f in live["findings"]] == \
        [(f["slug"], f["message"]) for f in judged["findings"]]


def test_secrets_and_home_never_leak(tmp_path: Path) -> None:
    secret = "hf_" + "A1b2C3d4" * 4
    env = {"HF_TOKEN": secret, "PIP_INDEX_URL": "https://alice:s3cretpw@pypi.example/simple",
           "CUDA_VISIBLE_DEVICES": "0", "OPENAI_KEYISH": "sk-" + "x" * 30}
    done = run_dldoctor("snapshot", env=env, cwd=tmp_path)
    assert done.returncode == 0
    assert secret not in done.stdout and "s3cretpw" not in done.stdout and "x" * 30 not in done.stdout
    snap = json.loads(done.stdout)
    assert snap["env"]["CUDA_VISIBLE_DEVICES"] == "0"
    assert snap["env"]["PIP_INDEX_URL"] == "https://alice:<redacted>@pypi.example/simple"
    home = os.path.expanduser("~")
    assert home + os.sep not in done.stdout
    assert '"~' in done.stdout or "~/" in done.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_text_and_markdown_render(fmt: str, tmp_path: Path) -> None:
    done = run_dldoctor("check", "--format", fmt, cwd=tmp_path)
    assert done.returncode in (0, 1)
    assert ("checks passed" in done.stdout) if fmt == "text" else done.stdout.startswith("### dldoctor report")


def test_help_teaches() -> None:
    done = run_dldoctor("--help")
    assert done.returncode == 0
    for word in ("check", "explain", "exit status", "examples"):
        assert word in done.stdout


def test_home_is_hidden_only_at_the_start_of_a_path() -> None:
    from dldoctor.redact import redact_home

    text = '/tmp/x/root/bin/python /root/venv "/root" C:\\Users\\bob\\env'
    assert redact_home(text, ["/root", "C:\\Users\\bob"]) == '/tmp/x/root/bin/python ~/venv "~" ~\\env'


def test_public_api_diagnose_and_explain() -> None:
    import dldoctor
    import dldoctor.explainer  # importing internals must not shadow the public names

    report = dldoctor.diagnose(select=["shadowed-module"])
    assert isinstance(report, dldoctor.Report)
    assert [r.condition.slug for r in report.results] == ["shadowed-module"]
    error = "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"
    (top, *_) = dldoctor.explain(error)
    assert top.condition.slug == "missing-shared-library"
