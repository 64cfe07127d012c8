"""The wheel users install is the tree the tests test.

A data file missing from the wheel breaks every command of the installed tool while every
test of the editable checkout passes (``probe/data/*.toml`` once did exactly that). So: build
the sdist and, from it, the wheel, as ``pip install .`` and ``python -m build`` do; compare
their file lists with the source tree; then run the commands from the unpacked wheel alone,
outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Set, Tuple

import jsonschema
import pytest

from ..conftest import ROOT

CACHE_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def tree_files(top: Path) -> Set[str]:
    """Files under ``top`` (relative, posix), as git tracks them when it can, else on disk."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", str(top)], cwd=ROOT, capture_output=True, check=True)
        tracked = {p for p in out.stdout.decode().split("\0") if p}
    except (OSError, subprocess.CalledProcessError):
        tracked = set()
    if tracked:  # a checkout: what is committed (untracked scratch files need not ship)
        return {str(Path(p).relative_to(top.relative_to(ROOT)).as_posix()) for p in tracked
                if (ROOT / p).is_file()}
    return {p.relative_to(top).as_posix() for p in top.rglob("*")  # an unpacked sdist
            if p.is_file() and not CACHE_PARTS & set(p.parts) and p.suffix not in (".pyc", ".pyo")}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Path]:
    """(sdist, wheel) built by ``python -m build``: the wheel is built from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def test_wheel_holds_every_file_of_the_package(built: Tuple[Path, Path]) -> None:
    _sdist, wheel = built
    source = tree_files(ROOT / "src" / "dldoctor")
    assert {"conditions/probe.toml", "render/report.schema.json", "py.typed"} <= source
    with zipfile.ZipFile(wheel) as zf:
        shipped = {n[len("dldoctor/"):] for n in zf.namelist() if n.startswith("dldoctor/")}
    assert sorted(source - shipped) == []
    assert not any(CACHE_PARTS & set(n.split("/")) or n.endswith(".pyc") for n in shipped)


def test_sdist_holds_the_tests_and_their_data(built: Tuple[Path, Path]) -> None:
    sdist, _wheel = built
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for folder in ("src/dldoctor", "tests", "docs"):
        missing = sorted(f"{folder}/{p}" for p in tree_files(ROOT / folder) if f"{folder}/{p}" not in names)
        assert missing == [], missing
    assert {"README.md", "pyproject.toml"} <= names
    assert not any(n.endswith(".pyc") for n in names)


def _run_unpacked(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "dldoctor", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_unpacked_wheel_runs_outside_the_checkout(built: Tuple[Path, Path], tmp_path: Path) -> None:
    """Every data file each command loads is found in the wheel (not in the checkout)."""
    _sdist, wheel = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    work = tmp_path / "work"
    work.mkdir()
    probe = subprocess.run([sys.executable, "-c", "import dldoctor, sys; print(dldoctor.__file__)"], cwd=work,
                           env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(site)), probe.stdout  # the wheel's copy, not the checkout's
    done = _run_unpacked(site, work, "check", "--no-probe", "--format", "json")
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    schema = json.loads((site / "dldoctor" / "render" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(done.stdout), schema)
    log = work / "error.log"
    log.write_text("OSError: [WinError 126] The specified module could not be found. Error loading "
                   '"C:\\x\\torch\\lib\\c10.dll" or one of its dependencies.\n', encoding="utf-8")
    commands: List[List[str]] = [["--version"], ["rules"], ["rules", "missing-vc-runtime"],
                                 ["explain", str(log), "--no-env"], ["probe", "--format", "json", "json"],
                                 ["lint", str(log.with_name("x.py"))]]
    (work / "x.py").write_text("import os\n", encoding="utf-8")
    for args in commands:
        done = _run_unpacked(site, work, *args)
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (args, done.stderr)
