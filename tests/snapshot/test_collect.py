"""Collecting a snapshot with every supported Python, and from a hostile working folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dldoctor.snapshot.collect import collect_snapshot

from ..conftest import find_python, venv_python

# --- snapshot on every supported Python ----------------------------------------------


@pytest.mark.machine
def test_snapshot_with_each_pyenv_python(tmp_path: Path) -> None:
    from ..conftest import PYTHONS, run_dldoctor

    for version in PYTHONS:
        py = find_python(version)
        done = run_dldoctor("snapshot", "--python", py, cwd=tmp_path)
        assert done.returncode == 0, (version, done.stderr)
        snap = json.loads(done.stdout)
        assert snap["interpreter"]["version"].startswith(version + "."), version
        assert snap["distributions"], version


def test_collector_survives_a_hostile_working_folder(torch_venv: Path, tmp_path: Path) -> None:
    # json.py / os-like names in the working folder must not hijack the collector.
    (tmp_path / "json.py").write_text("raise SystemExit('hijacked')\n")
    (tmp_path / "csv.py").write_text("raise SystemExit('hijacked')\n")
    snap = collect_snapshot(str(venv_python(torch_venv)), cwd=str(tmp_path))
    assert snap.framework("torch") is not None
