"""Checks about how distributions are installed, on real venvs: duplicate-install,
corrupt-install (and metadata too broken to read)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, List

import pytest

from dldoctor.snapshot.collect import collect_snapshot

from ..builders import PLAIN, findings, snapshot
from ..conftest import check_json, find_python, pip_install, site_packages, slugs, venv_python


def record_files(site: Path, dist_glob: str) -> int:
    record = next(site.glob(dist_glob)) / "RECORD"
    return sum(1 for line in record.read_text().splitlines() if line.strip())


# --- duplicate-install ---------------------------------------------------------------


def test_two_copies_of_one_distribution(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    extra = tmp_path / "extra"
    pip_install(venv_python(venv), "six==1.16.0", target=extra)
    # A second dist-info in the same site-packages (an interrupted or forced reinstall).
    old = next(extra.glob("six-*.dist-info"))
    shutil.copytree(old, site_packages(venv) / old.name)
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "duplicate-install"]
    assert len(found) == 1 and "six is installed 2 times: 1.16.0, 1.17.0" in found[0]["message"]
    # The files on the import path are 1.17.0's (RECORD hashes), not the first dist-info's.
    assert "(1.17.0 is imported)" in found[0]["message"]
    # Another copy on PYTHONPATH is pythonpath-pollution's to name, with its precedence.
    shutil.rmtree(site_packages(venv) / old.name)
    polluted = check_json("--python", str(venv_python(venv)), env={**PLAIN, "PYTHONPATH": str(extra)}, cwd=tmp_path)
    assert "duplicate-install" not in slugs(polluted) and "pythonpath-pollution" in slugs(polluted)
    assert "duplicate-install" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


@pytest.mark.machine
def test_two_dist_infos_in_one_folder_fixed_by_the_printed_commands(tmp_path: Path) -> None:
    """`pip install --force-reinstall` keeps whichever dist-info pip finds second; the printed fix
    (uninstall once per dist-info, install once) leaves exactly one, run verbatim with the
    venv's own pip."""
    venv = tmp_path / "venv"
    subprocess.run([find_python("3.11"), "-m", "venv", str(venv)], check=True)  # with pip, as users have
    pip_install(venv_python(venv), "six==1.17.0")
    extra = tmp_path / "extra"
    pip_install(venv_python(venv), "six==1.16.0", target=extra)
    site = site_packages(venv)
    shutil.copytree(next(extra.glob("six-*.dist-info")), site / "six-1.16.0.dist-info")
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    (f,) = [x for x in report["findings"] if x["slug"] == "duplicate-install"]
    uninstall, install = re.findall(r"`([^`]+)`", f["fix"])
    assert uninstall.endswith("-m pip uninstall -y six") and "2 times" in f["fix"]
    for cmd in (uninstall, uninstall, install):
        subprocess.run(["bash", "-c", cmd], check=True, capture_output=True)
    assert sorted(p.name for p in site.glob("six-*.dist-info")) == ["six-1.17.0.dist-info"]
    imported = subprocess.run([str(venv_python(venv)), "-c", "import six; print(six.__version__)"],
                              capture_output=True, text=True)
    assert imported.stdout.strip() == "1.17.0"
    assert "duplicate-install" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


@pytest.mark.machine
def test_system_site_packages_venv_with_its_own_pip_is_one_install_per_layer(tmp_path: Path) -> None:
    """``venv --system-site-packages`` seeds pip (and setuptools before 3.12) although the base
    interpreter has them too: the venv's copy overrides the base's by design, not a duplicate."""
    base = find_python("3.11")
    venv = tmp_path / "ssp"
    subprocess.run([base, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    listed = subprocess.run([str(venv_python(venv)), "-m", "pip", "list", "--format", "json"],
                            check=True, capture_output=True, text=True).stdout
    assert subprocess.run([str(venv_python(venv)), "-m", "pip", "check"], capture_output=True).returncode == 0
    pips = [d for d in json.loads(listed) if d["name"] == "pip"]
    assert pips, "the venv has pip"
    snap = collect_snapshot(str(venv_python(venv)))
    locations = {d.location for d in snap.distributions if d.name.lower() == "pip"}
    assert len(locations) == 2, locations  # both layers hold pip: the case this test is about
    assert findings(snap, "duplicate-install") == []


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


def interrupted_upgrade(site: Path, package: str) -> List[Path]:
    """What pip leaves when an upgrade is cut short after stashing the old copy: the package
    folder and its dist-info renamed with ~ for the first letter (pip's AdjacentTempDirectory)."""
    out = []
    for src in [site / package, *site.glob(f"{package}-*.dist-info")]:
        dst = site / ("~" + src.name[1:])
        shutil.copytree(src, dst)
        out.append(dst)
    return out


def pip_list(python: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "list"],
                          capture_output=True, text=True, timeout=300)


def test_pip_leftovers_found_and_removed_by_the_printed_fix(venv_factory: Callable[..., Path],
                                                             tmp_path: Path) -> None:
    venv = venv_factory(["idna==3.10"])
    site = site_packages(venv)
    interrupted_upgrade(site, "idna")
    assert "Ignoring invalid distribution ~dna" in pip_list(venv_python(venv)).stderr  # pip sees them too
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    (f,) = [x for x in report["findings"] if x["slug"] == "pip-leftovers"]
    assert f["severity"] == "warning"
    assert "left 2 folder(s)" in f["message"] and "~dna, ~dna-3.10.dist-info" in f["message"]
    assert "duplicate-install" not in slugs(report)  # not "uninstall idna until none is left"
    (cmd,) = re.findall(r"`([^`]+)`", f["fix"])
    assert cmd.startswith("rm -rf ")
    subprocess.run(["bash", "-c", cmd], check=True)
    assert "invalid distribution" not in pip_list(venv_python(venv)).stderr
    assert "pip-leftovers" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


def test_pip_leftovers_of_an_interrupted_uninstall_are_an_error(venv_factory: Callable[..., Path],
                                                                 tmp_path: Path) -> None:
    venv = venv_factory(["idna==3.10"])
    site = site_packages(venv)
    interrupted_upgrade(site, "idna")
    shutil.rmtree(site / "idna")  # the real copy was already gone when the run stopped
    shutil.rmtree(next(site.glob("idna-*.dist-info")))
    broken = subprocess.run([str(venv_python(venv)), "-c", "import idna"], capture_output=True, text=True)
    assert broken.returncode != 0
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    (f,) = [x for x in report["findings"] if x["slug"] == "pip-leftovers"]
    assert f["severity"] == "error" and "no installed package matches ~dna" in f["message"]
    assert "install the package again" in f["fix"]


def test_pip_leftovers_is_quiet_when_healthy(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["idna==3.10"])
    assert "pip-leftovers" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


def test_pip_leftovers_fix_keeps_home_expandable() -> None:
    snap = snapshot(host__home="/home/u", leftovers=("/home/u/.local/lib/python3.11/site-packages/~orch",
                                                     "/opt/my env/site-packages/~umpy"))
    (fix,) = [f.fix for f in findings(snap, "pip-leftovers") if "~orch" in f.message]
    assert fix.startswith("Remove them: `rm -rf ~/.local/lib/python3.11/site-packages/~orch`")
    (fix2,) = [f.fix for f in findings(snap, "pip-leftovers") if "~umpy" in f.message]
    assert "rm -rf '/opt/my env/site-packages/~umpy'" in fix2
