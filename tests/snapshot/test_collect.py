"""Collecting a snapshot with every supported Python, and from a hostile working folder."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from dldoctor.conditions.instruction_sets import KNOWN_FLAGS
from dldoctor.snapshot import collector
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


def test_cpu_features_are_the_flags_linux_reports(torch_venv: Path) -> None:
    """The target interpreter reads /proc/cpuinfo's flags; what grep sees is what it records."""
    snap = collect_snapshot(str(venv_python(torch_venv)))
    flags = set(subprocess.run(["grep", "-m1", "^flags", "/proc/cpuinfo"], capture_output=True, text=True,
                               check=True).stdout.partition(":")[2].split())
    assert snap.host.cpu_features == {f: f in flags for f in KNOWN_FLAGS}
    assert collector.cpu_features_from_cpuinfo("processor\t: 0\nmodel name\t: x\n", KNOWN_FLAGS) == {}


# sysctl -n machdep.cpu.features machdep.cpu.leaf7_features on an Intel Mac (Kaby Lake).
INTEL_MAC = """FPU VME DE PSE TSC MSR PAE MCE CX8 APIC SEP MTRR PGE MCA CMOV PAT PSE36 CLFSH DS ACPI MMX FXSR
SSE SSE2 SS HTT TM PBE SSE3 PCLMULQDQ DTES64 MON DSCPL VMX EST TM2 SSSE3 FMA CX16 TPR PDCM SSE4.1 SSE4.2
x2APIC MOVBE POPCNT AES PCID XSAVE OSXSAVE SEGLIM64 TSCTMR AVX1.0 RDRAND F16C
RDWRFSGS TSC_THREAD_OFFSET SGX BMI1 AVX2 SMEP BMI2 ERMS INVPCID FPU_CSDS MPX RDSEED ADX SMAP CLFSOPT IPT"""


def test_cpu_features_from_macos_sysctl_words() -> None:
    got = collector.cpu_features_from_sysctl(INTEL_MAC)
    assert got == {"sse4_1": True, "sse4_2": True, "popcnt": True, "avx": True, "avx2": True, "fma": True,
                   "avx512f": False}
    rosetta_before_15 = INTEL_MAC.replace("AVX1.0 ", "").replace("AVX2 ", "").replace("FMA ", "")
    assert collector.cpu_features_from_sysctl(rosetta_before_15)["avx"] is False
    assert collector.cpu_features_from_sysctl("") == {}


def test_cpu_features_from_windows_trust_only_a_windows_that_knows_the_ids() -> None:
    ids = collector.WINDOWS_PF
    sandy_bridge = {ids["sse4_1"], ids["sse4_2"], ids["avx"]}
    got = collector.cpu_features_from_windows(lambda pf: pf in sandy_bridge)
    assert got == {"sse4_1": True, "sse4_2": True, "popcnt": True, "avx": True, "avx2": False, "avx512f": False}
    # A Windows older than these ids answers FALSE to every one: unknown, not "no AVX".
    assert collector.cpu_features_from_windows(lambda pf: False) == {}
