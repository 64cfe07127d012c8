"""GPU facts: parsers on captured real nvidia-smi outputs, the driver seam, GPU findings.

No GPU exists here: the parsers run on outputs posted in public issues (each fixture cites
its URL), the no-driver path runs for real, and a recorded source stands in for a driver
behind the one narrow seam (GpuSource).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

import pytest

from dldoctor.model import Severity
from dldoctor.probe import probe_findings
from dldoctor.probe.gpu import (
    QUERY,
    QUERY_OLD,
    SystemGpuSource,
    arch_supported,
    collect_gpu,
    parse_smi_csv,
    parse_smi_header,
)
from dldoctor.probe.model import (
    GpuDevice,
    GpuInfo,
    ImportProbe,
    ModuleFacts,
    ProbeReport,
    TorchCuda,
    TorchDevice,
)

DATA = Path(__file__).parents[1] / "data" / "probe" / "nvidia-smi"


def _fixture(name: str) -> Tuple[Dict[str, str], str]:
    head, body = (DATA / name).read_text().split("---\n", 1)
    meta = {}
    for line in head.splitlines():
        if line.startswith("# ") and ":" in line:
            key, value = line[2:].split(":", 1)
            meta[key.strip()] = value.strip()
    assert meta["source"].startswith("https://"), name
    return meta, body


def _expect(meta: Dict[str, str]) -> Dict[str, str]:
    return dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", meta["expect"]))


@pytest.mark.parametrize("name", [*sorted(p.name for p in DATA.glob("header-*.txt")),
                                  "failed-no-driver.txt"])
def test_parse_smi_header_on_real_outputs(name):
    meta, body = _fixture(name)
    want = _expect(meta)
    driver, cuda = parse_smi_header(body)
    assert str(driver) == want["driver"]
    assert str(cuda) == want["cuda"]


@pytest.mark.parametrize("name", ["query-570.86.15.csv", "query-invalid-field.txt"])
def test_parse_smi_csv_on_real_outputs(name):
    meta, body = _fixture(name)
    want = _expect(meta)
    driver, devices = parse_smi_csv(body)
    assert str(driver) == want["driver"]
    got = ";".join(f"{d.index}:{d.name}:{'.'.join(map(str, d.capability or ()))}"
                   for d in devices)
    assert got == want.get("devices", "")


def test_parse_smi_csv_units_and_missing_values():
    text = ("index, name, driver_version, memory.total [MiB], compute_cap\n"
            "0, NVIDIA GeForce RTX 3090, 535.104.05, 24576 MiB, 8.6\n"
            "1, Tesla K80, 535.104.05, [N/A], [N/A]\n")
    driver, devices = parse_smi_csv(text)
    assert driver == "535.104.05"
    assert devices == (GpuDevice(0, "NVIDIA GeForce RTX 3090", 24576, (8, 6)),
                       GpuDevice(1, "Tesla K80", None, None))


def test_header_with_the_newer_cuda_umd_label():
    line = "| NVIDIA-SMI 610.47   Driver Version: 610.47   CUDA UMD Version: 13.3 |"
    assert parse_smi_header(line) == ("610.47", "13.3")


class Recorded:
    """A driver that answers from captured outputs (the one seam that may be faked)."""

    def __init__(self, answers: Dict[str, Tuple[int, str]], nvml: Optional[GpuInfo] = None):
        self.answers, self._nvml, self.calls = answers, nvml, []  # type: ignore[var-annotated]

    def nvml(self) -> Optional[GpuInfo]:
        return self._nvml

    def nvidia_smi(self, args: Sequence[str]) -> Optional[Tuple[int, str]]:
        key = " ".join(args)
        self.calls.append(key)
        return self.answers.get(key, (2, "unexpected call"))


def test_collect_falls_back_to_the_old_query_on_old_drivers():
    _, header = _fixture("header-450.57.txt")
    _, invalid = _fixture("query-invalid-field.txt")
    old = "index, name, driver_version, memory.total [MiB]\n0, TITAN Xp, 450.57, 12196 MiB\n"
    src = Recorded({"": (0, header),
                    f"--query-gpu={QUERY} --format=csv,noheader=false": (6, invalid),
                    f"--query-gpu={QUERY_OLD} --format=csv,noheader=false": (0, old)})
    info = collect_gpu(src)
    assert info == GpuInfo(True, "450.57", "11.0", (GpuDevice(0, "TITAN Xp", 12196, None),),
                           "nvidia-smi")
    assert len(src.calls) == 3


def test_collect_prefers_nvml():
    nvml = GpuInfo(True, "550.54.14", "12.4", (GpuDevice(0, "H100", 81559, (9, 0)),), "nvml")
    src = Recorded({}, nvml=nvml)
    assert collect_gpu(src) is nvml and src.calls == []


def test_collect_with_a_driver_that_does_not_answer():
    _, text = _fixture("failed-no-driver.txt")
    info = collect_gpu(Recorded({"": (9, text)}))
    assert not info.driver_present and "couldn't communicate" in info.error


def test_no_driver_on_this_machine_for_real():
    """This machine has no NVIDIA driver: the real seam says so, without raising."""
    assert shutil.which("nvidia-smi") is None
    info = collect_gpu(SystemGpuSource())
    assert info.driver_present is False
    assert info.error.startswith("no NVIDIA driver")


@pytest.mark.parametrize(("cap", "archs", "ok"), [
    ((8, 6), ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], True),
    ((8, 9), ["sm_80"], True),  # same major, newer minor: cubin compatible
    ((12, 0), ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], False),
    ((12, 0), ["sm_90", "compute_90"], True),  # PTX JIT
    ((6, 1), ["sm_70", "sm_80", "sm_90"], False),  # seed 004: Pascal dropped
    ((10, 0), ["sm_90a"], False),
    ((9, 0), ["sm_90a"], True),
    ((7, 5), [], True),  # unknown list: not held against it
])
def test_arch_supported(cap, archs, ok):
    assert arch_supported(cap, archs) is ok


def _report(gpu: GpuInfo, cuda: Optional[str] = "12.4", tc: Optional[TorchCuda] = None,
            platform: str = "linux") -> ProbeReport:
    probe = ImportProbe(("torch",), "ok",
                        facts=(ModuleFacts("torch", None, "2.5.1", cuda, None),))
    return ProbeReport("py", platform, imports=(probe,), gpu=gpu, torch_cuda=tc)


def _slugs(report: ProbeReport):
    return [f.condition.slug for f in probe_findings(report)]


def test_cuda_build_without_driver():
    assert _slugs(_report(GpuInfo(False, error="no NVIDIA driver"))) == ["gpu-build-without-gpu"]


def test_cpu_build_with_driver():
    assert _slugs(_report(GpuInfo(True, "550.54.14", "12.4"), cuda=None)) == ["cpu-only-build"]


@pytest.mark.parametrize(("driver", "platform", "cuda", "too_old"), [
    ("470.182.03", "linux", "12.1", True),
    ("525.60.13", "linux", "12.4", False),  # minor version compatibility
    ("525.60.12", "linux", "12.4", True),
    ("527.40", "windows", "12.1", True),
    ("560.94", "windows", "12.6", False),
    ("450.80.02", "linux", "11.8", False),
])
def test_driver_too_old(driver, platform, cuda, too_old):
    slugs = _slugs(_report(GpuInfo(True, driver, None), cuda=cuda, platform=platform))
    assert ("driver-too-old" in slugs) is too_old


def test_gpu_arch_unsupported_from_the_torch_child():
    tc = TorchCuda("2.5.1", "12.4", None, True, 1, ("sm_50", "sm_80", "sm_90"),
                   (TorchDevice(0, "NVIDIA GeForce RTX 5090", (12, 0),
                                "RuntimeError: CUDA error: no kernel image is available"),))
    (f,) = probe_findings(_report(GpuInfo(True, "570.86.15", "12.8"), tc=tc))
    assert f.condition.slug == "gpu-arch-unsupported" and f.level == Severity.ERROR
    assert f.message == ("GPU 0 (NVIDIA GeForce RTX 5090, sm_120) is not in torch's arch list")


def test_snapshot_driver_facts_are_used_when_the_probe_skipped_the_query():
    import dataclasses

    from dldoctor.snapshot.model import Gpu, Snapshot
    from dldoctor.snapshot.model import GpuDevice as SnapDevice

    snap = Snapshot()
    snap = dataclasses.replace(snap, host=dataclasses.replace(snap.host, gpu=Gpu(
        True, "470.57.02", "11.4", (SnapDevice("Tesla T4", 15360, "7.5"),), "nvidia-smi")))
    report = _report(GpuInfo(False, error="skipped"), cuda="12.1")
    assert _slugs(report) == []  # no driver facts, no judgement
    found = [f.condition.slug for f in probe_findings(report, snap)]
    assert found == ["driver-too-old"]
