"""`dldoctor explain` end to end through the real CLI entry point."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Dict, List

import jsonschema
import pytest

from dldoctor.cli import main

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "src" / "dldoctor" / "render" / "explain.schema.json")
                    .read_text(encoding="utf-8"))
# c10.dll, not fbgemm.dll: a failing fbgemm.dll alone is also torch 2.4.0's listed regression (known_versions.toml)
TRACEBACK = """\
Traceback (most recent call last):
  File "C:\\Users\\someone\\proj\\app.py", line 3, in <module>
    import torch
OSError: [WinError 126] The specified module could not be found. Error loading \
"C:\\Users\\someone\\proj\\.venv\\Lib\\site-packages\\torch\\lib\\c10.dll" \
or one of its dependencies.
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code = main(["explain", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _write(tmp_path: Path, text: str, name: str = "err.log") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_text_answer_first_then_details(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, TRACEBACK), "--no-env")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("DLD001 missing-vc-runtime (") and "c10.dll" in lines[0]
    assert "   fix      " in out and "   confirm  " in out and "   matched  line 4: " in out
    assert "fixes shown for: windows" in out


def test_json_follows_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, TRACEBACK), "--no-env", "--format", "json")
    doc: Dict[str, Any] = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    assert code == 0 and doc["schema_version"] == 1
    first = doc["diagnoses"][0]
    assert (first["code"], first["slug"]) == ("DLD001", "missing-vc-runtime")
    assert first["subject"]["lib"] == "c10.dll"
    confidences: List[float] = [d["confidence"] for d in doc["diagnoses"]]
    assert confidences == sorted(confidences, reverse=True)


def test_no_known_condition_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, "epoch 3: loss 0.12\n"), "--no-env")
    assert code == 1 and "no known condition matched" in out
    code, out, _ = _run(capsys, _write(tmp_path, ""), "--no-env", "--format", "json")
    assert code == 1 and json.loads(out)["diagnoses"] == []


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_input_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    target = tmp_path / "nope.log" if kind == "missing" else tmp_path
    code, out, err = _run(capsys, str(target), "--no-env")
    assert code == 2 and out == ""
    reason = "cannot read" if kind == "missing" else "not a regular file (a directory)"
    assert err.startswith(f"dldoctor: {target}: {reason}") and err.count("\n") == 1


def test_bad_snapshot_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snap = _write(tmp_path, "{not json", "snap.json")
    code, _, err = _run(capsys, _write(tmp_path, TRACEBACK), "--snapshot", snap)
    assert code == 2 and "snapshot" in err


def test_stdin_and_crlf(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = b"RuntimeError: Distributed package doesn't have NCCL built in\r\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = _run(capsys, "-", "--no-env")
    assert code == 0 and out.startswith("DLD034 nccl-unavailable")


def test_secrets_and_home_never_echoed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home" / "victor"
    monkeypatch.setenv("HOME", str(home))
    text = (
        f"OSError: {home}/venv/lib/libcudnn.so.9: cannot open shared object file "
        "token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 password=hunter2\n"
    )
    for fmt in ("text", "json"):
        code, out, _ = _run(capsys, _write(tmp_path, text), "--no-env", "--format", fmt)
        assert code == 0
        for leak in ("ghp_abc", "hunter2", str(home), "victor"):
            assert leak not in out
        assert "~/venv/lib/libcudnn.so.9" in out


def test_snapshot_file_weighs_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snap = {
        "schema_version": 1,
        "host": {"os": "windows", "gpu": {"driver_present": True}},
        "interpreter": {"bits": 64},
        "frameworks": [{"name": "torch", "dist": "torch", "version": "2.9.0+cpu", "values": {"cuda": None}}],
    }
    text = (
        "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. "
        'Error loading "C:\\e\\torch\\lib\\c10.dll" or one of its dependencies.\n'
    )
    code, out, _ = _run(
        capsys,
        _write(tmp_path, text),
        "--snapshot",
        _write(tmp_path, json.dumps(snap), "snap.json"),
        "--format",
        "json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["machine"].startswith("snapshot ")
    assert doc["diagnoses"][0]["slug"] == "known-bad-release"
    assert doc["diagnoses"][0]["evidence"][0]["label"] == "torch_version"


def test_default_run_uses_machine_facts_or_says_why_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, _write(tmp_path, TRACEBACK))
    assert code == 0
    # a Windows traceback explained on another OS: this machine's facts are set aside
    assert "machine facts: " in out
    assert "machine facts: this machine" in out or "text from another OS" in out


def test_default_run_weighs_with_this_machine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "RuntimeError: Distributed package doesn't have NCCL built in\n"
    code, out, _ = _run(capsys, _write(tmp_path, text), "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["machine"] == "this machine"
