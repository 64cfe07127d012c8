"""onnxruntime 1.16.0's CPU package refuses an InferenceSession without ``providers=``
(microsoft/onnxruntime#17631, fixed in 1.16.1): a real install of the release, its real
error, `explain` on that text, `check` on the environment, and the fix `check` proposes run
on it, after which the same call gets past the providers check."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from ..conftest import check_json, find_python, pip_install, run_dldoctor, slugs, venv_python

#: the call every onnxruntime tutorial makes; the file is no model, so a release without the
#: regression fails later, on loading it
CALL = "import onnxruntime as ort, sys; ort.InferenceSession(sys.argv[1])"
DEPS = ["coloredlogs", "flatbuffers", "numpy<2", "packaging", "protobuf", "sympy"]


def _call(python: Path, model: Path) -> str:
    done = subprocess.run([str(python), "-c", CALL, str(model)], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    return done.stderr


@pytest.mark.slow
def test_onnxruntime_1160_is_explained_flagged_and_fixed(tmp_path: Path) -> None:
    # a venv as a user makes it, with its own pip: the fix `check` proposes runs that pip
    venv = tmp_path / "user-venv"
    subprocess.run([find_python("3.11"), "-m", "venv", str(venv)], check=True)
    python = venv_python(venv)
    pip_install(python, "onnxruntime==1.16.0", *DEPS)
    model = tmp_path / "not-a-model.onnx"
    model.write_text("junk\n")
    error = _call(python, model)
    assert "This ORT build has ['AzureExecutionProvider', 'CPUExecutionProvider'] enabled" in error

    explained = run_dldoctor("explain", "--format", "json", input=error, cwd=tmp_path)
    assert explained.returncode in (0, 1), explained.stderr
    assert json.loads(explained.stdout)["diagnoses"][0]["slug"] == "known-bad-release", explained.stdout[:800]

    report = check_json("--python", str(python), cwd=tmp_path)
    assert "known-bad-release" in slugs(report)
    (finding,) = [f for f in report["findings"] if f["slug"] == "known-bad-release"]  # type: ignore[index,union-attr]
    assert "onnxruntime 1.16.0" in finding["message"]
    fix = finding["fix"]
    assert "onnxruntime==1.16.1" in fix

    # the fix as `check` wrote it: "Run `<python> -m pip install onnxruntime==1.16.1`."
    command = fix.split("`")[1]
    done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "providers parameter" not in _call(python, model)  # now it fails only on the junk file
    assert "known-bad-release" not in slugs(check_json("--python", str(python), cwd=tmp_path))


def test_onnxruntime_1161_is_quiet(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    python = venv_python(venv_factory(["onnxruntime==1.16.1", *DEPS]))
    assert "known-bad-release" not in slugs(check_json("--python", str(python), cwd=tmp_path))
