"""Checks about the interpreter itself, each triggered by a real broken situation and quiet on
a clean one: shadowed-module, interpreter-mismatch, unsupported-python."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from ..builders import PLAIN
from ..conftest import check_json, find_python, make_venv, pip_install, site_packages, slugs, venv_python

# --- shadowed-module -----------------------------------------------------------------


def test_torch_py_in_working_folder_is_an_error_with_the_file_as_evidence(torch_venv: Path, tmp_path: Path) -> None:
    (tmp_path / "torch.py").write_text("print('my experiment')\n")
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    shadow = [f for f in report["findings"] if f["slug"] == "shadowed-module"]
    assert len(shadow) == 1 and shadow[0]["severity"] == "error"
    assert any(e["value"].endswith("torch.py") for e in shadow[0]["evidence"])


def test_clean_torch_venv_has_no_error_finding(torch_venv: Path, tmp_path: Path) -> None:
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert slugs(report, "error") == [], report["findings"]
    facts = {f["label"]: f["value"] for f in report["facts"]}
    assert facts["torch"].startswith("2.13.0") and "(CPU)" in facts["torch"]


def test_namespace_folder_does_not_shadow(torch_venv: Path, tmp_path: Path) -> None:
    (tmp_path / "torch").mkdir()  # no __init__.py: a namespace portion, import goes on
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert "shadowed-module" not in slugs(report)
    (tmp_path / "torch" / "__init__.py").write_text("")
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert "shadowed-module" in slugs(report, "error")


# --- interpreter-mismatch ------------------------------------------------------------


def test_pip_of_another_env_first_on_path(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    a, b = venv_factory(), venv_factory(["pip"])
    only_pip = tmp_path / "pip-only"
    only_pip.mkdir()
    shutil.copy2(b / "bin" / "pip", only_pip / "pip")  # the real console script of env b
    path = os.pathsep.join([str(only_pip), str(a / "bin")])
    report = check_json("--python", str(venv_python(a)), env={**PLAIN, "PATH": path}, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "interpreter-mismatch"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert str(b) in found[0]["message"] and str(a) in found[0]["message"]
    # Same environment for both: quiet.
    path_ok = str(b / "bin")
    report = check_json("--python", str(venv_python(b)), env={**PLAIN, "PATH": path_ok}, cwd=tmp_path)
    assert "interpreter-mismatch" not in slugs(report)


# --- unsupported-python --------------------------------------------------------------


@pytest.mark.machine
def test_cp311_wheel_on_python_312(tmp_path: Path) -> None:
    py311, py312 = find_python("3.11"), find_python("3.12")
    target = tmp_path / "shared-site"
    pip_install(Path(py311), "--only-binary=:all:", "markupsafe==3.0.3", target=target)
    venv = make_venv(tmp_path / "venv312", py312)
    site = site_packages(venv)
    for item in target.iterdir():  # the cp311 wheel's files copied into a 3.12 environment
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, site / item.name)
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "unsupported-python"]
    assert [f["severity"] for f in found] == ["error"]
    assert "MarkupSafe 3.0.3 was built for cp311-cp311-" in found[0]["message"]
    # The same folder on PYTHONPATH: the cause is the variable, and reinstalling would not help.
    env = {**PLAIN, "PYTHONPATH": str(target)}
    report = check_json("--python", py312, env=env, cwd=tmp_path)
    assert "unsupported-python" not in slugs(report)
    (f,) = [f for f in report["findings"] if f["slug"] == "pythonpath-pollution"]
    assert "for Python 3.11, this is 3.12" in f["message"]
    venv311 = make_venv(tmp_path / "venv311", py311)  # the Python it was built for: a fine extra folder
    report = check_json("--python", str(venv_python(venv311)), env=env, cwd=tmp_path)
    assert "unsupported-python" not in slugs(report) and "pythonpath-pollution" not in slugs(report)
