"""Checks about how distributions are installed, on real venvs: duplicate-install,
corrupt-install (and metadata too broken to read)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

from ..builders import PLAIN
from ..conftest import check_json, pip_install, site_packages, slugs, venv_python


def record_files(site: Path, dist_glob: str) -> int:
    record = next(site.glob(dist_glob)) / "RECORD"
    return sum(1 for line in record.read_text().splitlines() if line.strip())


# --- duplicate-install ---------------------------------------------------------------


def test_two_copies_of_one_distribution(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    extra = tmp_path / "extra"
    pip_install(venv_python(venv), "six==1.16.0", target=extra)
    report = check_json("--python", str(venv_python(venv)), env={**PLAIN, "PYTHONPATH": str(extra)}, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "duplicate-install"]
    assert len(found) == 1 and "six is installed 2 times: 1.16.0, 1.17.0" in found[0]["message"]
    assert "duplicate-install" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


def test_pip_over_conda_in_a_conda_like_layout(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    (venv / "conda-meta").mkdir()
    (venv / "conda-meta" / "six-1.16.0-pyhd3eb1b0_1.json").write_text(json.dumps({"name": "six"}))
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "duplicate-install"]
    assert [f["severity"] for f in found] == ["warning"]
    assert "pip installed six 1.17.0 over conda's six" in found[0]["message"]


# --- corrupt-install -----------------------------------------------------------------


def test_missing_and_truncated_files(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0", "--only-binary=:all:", "markupsafe==3.0.3"])
    sp = site_packages(venv)
    n_six, n_ms = record_files(sp, "six-*.dist-info"), record_files(sp, "markupsafe-*.dist-info")
    clean = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "corrupt-install" not in slugs(clean)
    (sp / "six.py").unlink()
    speedups = next((sp / "markupsafe").glob("_speedups*.so"))
    data = speedups.read_bytes()
    speedups.write_bytes(data[: len(data) // 2])  # an interrupted copy
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    msgs = sorted(f["message"] for f in report["findings"] if f["slug"] == "corrupt-install")
    assert msgs == [f"MarkupSafe 3.0.3: 1 of wrong size of {n_ms} files in RECORD",
                    f"six 1.17.0: 1 missing of {n_six} files in RECORD"], msgs


def test_edited_file_found_only_with_verify_hashes(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    six = site_packages(venv) / "six.py"
    n_six = record_files(site_packages(venv), "six-*.dist-info")
    text = six.read_text()
    six.write_text(text.replace("import", "IMPORT", 1))  # same size, other content
    quick = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "corrupt-install" not in slugs(quick)
    deep = check_json("--python", str(venv_python(venv)), "--verify-hashes", env=PLAIN, cwd=tmp_path)
    assert [f["message"] for f in deep["findings"] if f["slug"] == "corrupt-install"] == \
        [f"six 1.17.0: 1 with wrong content of {n_six} files in RECORD"]


def test_broken_metadata_is_a_finding_not_a_crash(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    meta = next(site_packages(venv).glob("six-*.dist-info"))
    (meta / "METADATA").write_bytes(b"\xff\xfe garbage without headers\n")
    (meta / "RECORD").write_text('"unterminated,\n')
    done = subprocess.run([sys.executable, "-m", "dldoctor", "check", "--python", str(venv_python(venv))],
                          capture_output=True, text=True, env={**os.environ, **PLAIN}, cwd=tmp_path)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    assert "METADATA has no Name" in done.stdout
