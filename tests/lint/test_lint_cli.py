"""The ``dldoctor lint`` contract (DESIGN §7): formats, exit codes, noqa, selection, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from dldoctor.cli import main

GOLDEN = Path(__file__).parent / "golden"
BAD = "from multiprocessing import Pool\npool = Pool(2)\n"
GUI = "import PyQt5\nimport torch\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_text_is_ruff_style_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "train.py", BAD)
    code, out, _ = run(capsys, path)
    assert code == 1
    first = out.splitlines()[0]
    assert first == f"{path}:2:8: DLD026 Pool() runs on import without a __main__ guard"
    assert out.splitlines()[-1] == "Found 1 finding."


def test_clean_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.py", "import torch\nprint(torch)\n")
    assert run(capsys, path) == (0, "", "")


def test_verbose_prints_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "-v", write(tmp_path, "t.py", BAD))
    assert code == 1
    assert 'fix: Move the work into main() and call it under `if __name__ == "__main__":`' in out


def test_every_message_is_under_80(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--format", "json", str(GOLDEN))
    assert all(len(f["message"]) < 80 for f in json.loads(out)["findings"])


def test_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "t.py", BAD)
    code, out, _ = run(capsys, "--format", "json", path)
    doc = json.loads(out)
    assert code == 1 and doc["schema_version"] == 1 and doc["errors"] == []
    (f,) = doc["findings"]
    assert {k: f[k] for k in ("code", "slug", "severity", "path", "line", "col", "cell")} == {
        "code": "DLD026",
        "slug": "multiprocessing-main-guard",
        "severity": "error",
        "path": path,
        "line": 2,
        "col": 8,
        "cell": None,
    }
    assert f["fix"] and f["evidence"] == [{"label": "starts workers", "value": "line 2: Pool()"}]


def test_sarif_2_1_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "t.py", BAD + GUI)
    code, out, _ = run(capsys, "--format", "sarif", path)
    doc = json.loads(out)
    assert code == 1 and doc["version"] == "2.1.0" and "sarif" in doc["$schema"]
    (run_,) = doc["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} == {"DLD004", "DLD006", "DLD026", "DLD029"}
    got = []
    for res in run_["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        got.append((res["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"]))
    assert sorted(got) == [("DLD004", path, 4), ("DLD026", path, 2)]


def test_select_and_ignore_take_codes_and_slugs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "t.py", BAD + GUI)

    def codes(*opts: str) -> List[str]:
        _, out, _ = run(capsys, "--format", "json", *opts, path)
        return [f["code"] for f in json.loads(out)["findings"]]

    assert codes() == ["DLD026", "DLD004"]
    assert codes("--select", "DLD004") == ["DLD004"]
    assert codes("--select", "import-order-conflict,DLD026") == ["DLD026", "DLD004"]
    assert codes("--ignore", "multiprocessing-main-guard") == ["DLD004"]
    assert run(capsys, "--ignore", "DLD026,DLD004", path)[0] == 0


def test_unknown_rule_is_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "t.py", BAD)
    code, _, err = run(capsys, "--select", "DLD999", path)
    assert code == 2 and err == "dldoctor: unknown rule 'DLD999'\n"
    code, _, err = run(capsys, "--select", "DLD001", path)
    assert code == 2 and "not a lint rule" in err


def test_syntax_error_does_not_hide_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = write(tmp_path, "a_broken.py", "def f(:\n")
    good = write(tmp_path, "b_train.py", BAD)
    code, out, err = run(capsys, str(tmp_path))
    assert code == 1
    assert err == f"{broken}: error: cannot parse: invalid syntax (line 1)\n"
    assert out.startswith(f"{good}:2:8: DLD026")


def test_errors_alone_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = write(tmp_path, "x.py", "def f(:\n")
    missing = str(tmp_path / "missing.py")
    binary = tmp_path / "nul.py"
    binary.write_bytes(b"x = 1\x00\n")
    nb = write(tmp_path, "bad.ipynb", "{not json")
    code, out, err = run(capsys, broken, missing, str(binary), nb)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 4
    assert f"{missing}: error: no such file or directory" in lines
    assert any(line.startswith(f"{nb}: error: not a notebook") for line in lines)
    assert any(line.startswith(f"{binary}: error: cannot parse") for line in lines)


def test_walk_skips_venvs_hidden_and_site_packages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, ".venv/lib/t.py", BAD)
    write(tmp_path, "env/pyvenv.cfg", "home = /usr/bin\n")
    write(tmp_path, "env/lib/t.py", BAD)
    write(tmp_path, "lib/site-packages/t.py", BAD)
    write(tmp_path, ".hidden/t.py", BAD)
    shown = write(tmp_path, "src/train.py", BAD)
    code, out, _ = run(capsys, "--format", "json", str(tmp_path))
    assert code == 1
    assert [f["path"] for f in json.loads(out)["findings"]] == [shown]


def test_home_is_shown_as_tilde(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    write(tmp_path, "proj/train.py", BAD)
    _, out, _ = run(capsys, str(tmp_path / "proj"))
    assert out.startswith(f"~{Path('/proj/train.py')}:2:8: DLD026".replace("\\", "/"))


def test_hostile_inputs_never_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = write(tmp_path, "deep.py", "x = " + "(" * 5000 + ")" * 5000 + "\n")
    weird = write(
        tmp_path, "w.ipynb", json.dumps({"cells": [{"cell_type": "code", "source": 5}, 3]})
    )
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\ns = '\xe9'\n")
    code, _, err = run(capsys, deep, weird, str(latin))
    assert code == 2 and err.count("error:") == 1 and "deep.py" in err


def test_subprocess_entry_point(tmp_path: Path) -> None:
    path = write(tmp_path, "t.py", BAD)
    proc = subprocess.run(
        [sys.executable, "-m", "dldoctor", "lint", path], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and "DLD026" in proc.stdout


def test_flake8_plugin_reports_the_same(tmp_path: Path) -> None:
    """Real flake8 (test extra): same codes and places, its own noqa handling."""
    write(tmp_path, "t.py", BAD + GUI + "p2 = Pool(3)  # noqa: DLD026\n")
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "DLD", "t.py"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines() == [
        "t.py:2:8: DLD026 Pool() runs on import without a __main__ guard",
        "t.py:4:1: DLD004 torch imported after PyQt5 (line 3): WinError 1114 in c10.dll on Windows",
    ]


def test_pre_commit_hook_definition() -> None:
    text = (Path(__file__).parents[2] / ".pre-commit-hooks.yaml").read_text()
    assert "- id: dldoctor-lint" in text and "entry: dldoctor lint" in text
    assert "types_or: [python, jupyter]" in text
