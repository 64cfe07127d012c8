"""GPU findings of the probe: a recorded driver (the one seam that may be faked) judged against
torch's build facts and torch's own device view."""

from __future__ import annotations

from typing import Optional

import pytest

from dldoctor.model import Severity
from dldoctor.probe import probe_findings
from dldoctor.probe.model import ImportProbe, ModuleFacts, ProbeReport, TorchCuda, TorchDevice
from dldoctor.snapshot.model import Gpu

from ..builders import snapshot


def _report(gpu: Gpu, cuda: Optional[str] = "12.4", tc: Optional[TorchCuda] = None,
            platform: str = "linux") -> ProbeReport:
    probe = ImportProbe(("torch",), "ok",
                        facts=(ModuleFacts("torch", None, "2.5.1", cuda, None),))
    return ProbeReport("py", platform, imports=(probe,), gpu=gpu, torch_cuda=tc)


def _slugs(report: ProbeReport):
    return [f.condition.slug for f in probe_findings(report)]


def test_cuda_build_without_driver():
    assert _slugs(_report(Gpu(False, error="no NVIDIA driver"))) == ["gpu-build-without-gpu"]


def test_cpu_build_with_driver():
    assert _slugs(_report(Gpu(True, "550.54.14", "12.4"), cuda=None)) == ["cpu-only-build"]


@pytest.mark.parametrize(("driver", "platform", "cuda", "too_old"), [
    ("470.182.03", "linux", "12.1", True),
    ("525.60.13", "linux", "12.4", False),  # minor version compatibility
    ("525.60.12", "linux", "12.4", True),
    ("527.40", "windows", "12.1", True),
    ("560.94", "windows", "12.6", False),
    ("450.80.02", "linux", "11.8", False),
])
def test_driver_too_old(driver, platform, cuda, too_old):
    slugs = _slugs(_report(Gpu(True, driver, None), cuda=cuda, platform=platform))
    assert ("driver-too-old" in slugs) is too_old


def test_gpu_arch_unsupported_from_the_torch_child():
    tc = TorchCuda("2.5.1", "12.4", None, True, 1, ("sm_50", "sm_80", "sm_90"),
                   (TorchDevice(0, "NVIDIA GeForce RTX 5090", (12, 0),
                                "RuntimeError: CUDA error: no kernel image is available"),))
    (f,) = probe_findings(_report(Gpu(True, "570.86.15", "12.8"), tc=tc))
    assert f.condition.slug == "gpu-arch-unsupported" and f.level == Severity.ERROR
    assert f.message == ("GPU 0 (NVIDIA GeForce RTX 5090, sm_120) is not in torch's arch list")


def test_snapshot_driver_facts_are_used_when_the_probe_skipped_the_query():
    from dldoctor.snapshot.model import GpuDevice

    snap = snapshot(host__gpu=Gpu(True, "470.57.02", "11.4", (GpuDevice("Tesla T4", 15360, "7.5"),), "nvidia-smi"))
    report = _report(Gpu(False, error="skipped"), cuda="12.1")
    assert _slugs(report) == []  # no driver facts, no judgement
    found = [f.condition.slug for f in probe_findings(report, snap)]
    assert found == ["driver-too-old"]
