"""The python-32bit check against a REAL 32-bit CPython, not a doctored snapshot.

Debian's i386 CPython 3.11 packages are downloaded and unpacked under ``.cache/i386-python``
(tests/data/i386/fetch_python.sh) and run through their own i386 loader, so the amd64 system
is never touched. A 32-bit Python on a 64-bit kernel is exactly the trap the check exists
for: everything looks like x86_64 from outside, and no framework wheel will install.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from ..conftest import CACHE, ROOT, check_json, find_python, run_dldoctor, slugs

pytestmark = pytest.mark.slow

FETCH = ROOT / "tests" / "data" / "i386" / "fetch_python.sh"
# A small wheel published both for i686 and x86_64, with a compiled extension to load.
WHEEL = "markupsafe==2.1.5"
ISOLATED = {"PYTHONPATH": "", "PYTHONHOME": ""}


@pytest.fixture(scope="session")
def python32() -> Path:
    """The wrapper that runs the unpacked i386 CPython (built once per fetch script version)."""
    key = hashlib.sha256(FETCH.read_bytes()).hexdigest()[:10]
    dest = CACHE / "i386-python" / key
    done = dest / ".complete"
    if not done.exists():
        subprocess.run(["bash", str(FETCH), str(dest)], check=True, stdout=subprocess.DEVNULL, timeout=300)
        done.write_text("ok\n")
    return dest / "python3.11-i386"


@pytest.fixture(scope="session")
def wheel_dirs() -> Dict[str, Path]:
    """The same release installed (not importable here: --target) for each architecture."""
    out: Dict[str, Path] = {}
    for arch, plat in (("i686", "manylinux2014_i686"), ("x86_64", "manylinux2014_x86_64")):
        target = CACHE / "i386-python" / "wheels" / f"{WHEEL.replace('==', '-')}-{arch}"
        if not (target / ".complete").exists():
            shutil.rmtree(target, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                            "--no-input", "--no-deps", "--only-binary=:all:", "--platform", plat,
                            "--python-version", "3.11", "--implementation", "cp", "--target", str(target),
                            WHEEL], check=True, stdout=subprocess.DEVNULL, timeout=300)
            (target / ".complete").write_text("ok\n")
        out[arch] = target
    return out


def elf_class_and_machine(path: Path) -> Tuple[int, int]:
    head = path.read_bytes()[:20]
    assert head[:4] == b"\x7fELF", path
    return head[4], int.from_bytes(head[18:20], "little")


def python32_findings(report: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [f for f in report["findings"] if f["slug"] == "python-32bit"]


def test_interpreter_is_really_32bit(python32: Path) -> None:
    binary = python32.parent / "sysroot" / "usr" / "bin" / "python3.11"
    assert elf_class_and_machine(binary) == (1, 3)  # ELFCLASS32, EM_386
    done = subprocess.run([str(python32), "-c", "import struct, sys; print(struct.calcsize('P'), sys.maxsize)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["4", str(2**31 - 1)]


def test_wrapper_passes_args_and_stdin(python32: Path) -> None:
    """dldoctor runs ``PY - CONFIG_JSON`` with the collector on stdin."""
    done = subprocess.run([str(python32), "-", '{"a": 1}'], input="import sys; print(sys.argv[1])",
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == '{"a": 1}'


def test_32bit_python_is_an_error(python32: Path) -> None:
    report: Dict[str, Any] = check_json("--python", str(python32), env=ISOLATED)
    assert report["errors"] == []
    found = python32_findings(report)
    assert len(found) == 1
    assert found[0]["severity"] == "error"
    evidence = {e["label"]: e["value"] for e in found[0]["evidence"]}
    assert evidence["pointer size"] == "32 bits"
    assert evidence["platform"] == "linux-i686"
    assert found[0]["code"] == "DLD016"
    assert found[0]["message"].endswith("is a 32-bit Python 3.11.2")
    assert "python-32bit" in slugs(report, "error")


def test_64bit_python_is_not(python32: Path) -> None:
    report: Dict[str, Any] = check_json("--python", find_python("3.11"), env=ISOLATED)
    assert python32_findings(report) == []
    assert "python-32bit" in {c["slug"] for c in report["checks"]}  # it ran, and stayed quiet


def test_snapshot_of_32bit_python(python32: Path) -> None:
    done = run_dldoctor("snapshot", "--python", str(python32), env=ISOLATED)
    assert done.returncode == 0, done.stderr
    snap = json.loads(done.stdout)
    interp = snap["interpreter"]
    assert interp["bits"] == 32
    assert interp["platform_tag"] == "linux-i686"
    assert interp["soabi"] == "cpython-311-i386-linux-gnu"
    assert interp["version_info"][:2] == [3, 11]
    assert snap["distributions"] == []  # the bare stdlib: nothing installed, and nothing failed
    assert snap["errors"] == []


@pytest.mark.parametrize("arch, loads", [("i686", True), ("x86_64", False)])
def test_wheel_architecture_against_32bit_python(python32: Path, wheel_dirs: Dict[str, Path],
                                                 arch: str, loads: bool) -> None:
    """The i686 wheel's extension loads in the 32-bit interpreter and x86_64's does not (the
    interpreter is the oracle); dldoctor must flag exactly the one that cannot load."""
    env = {**ISOLATED, "PYTHONPATH": str(wheel_dirs[arch])}
    probe = subprocess.run([str(python32), "-c", "import markupsafe._speedups"], capture_output=True,
                           text=True, env={**os.environ, **env})
    assert (probe.returncode == 0) is loads, probe.stderr
    report: Dict[str, Any] = check_json("--python", str(python32), env=env)
    flagged = [f for f in report["findings"] if f["slug"] == "unsupported-python"]
    assert [f["message"].split()[0] for f in flagged] == ([] if loads else ["MarkupSafe"])
    assert len(python32_findings(report)) == 1
