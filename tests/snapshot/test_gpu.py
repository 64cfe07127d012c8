"""The snapshot's GPU facts: the driver through its one seam (a recorded nvidia-smi), and the
file fallbacks when its tools are missing."""

from __future__ import annotations

from pathlib import Path

from dldoctor.snapshot import gpu as gpu_mod
from dldoctor.snapshot.model import Gpu, GpuDevice

from ..builders import PROC, FakeDriver, NoDriver


def test_driver_found_from_proc_when_tools_are_missing(tmp_path: Path) -> None:
    assert gpu_mod.parse_proc_version(PROC) == "550.54.15"
    assert gpu_mod.collect_gpu("linux", source=NoDriver(), root=str(tmp_path)).driver_present is False
    proc = tmp_path / "proc" / "driver" / "nvidia"
    proc.mkdir(parents=True)
    (proc / "version").write_text(PROC)
    g = gpu_mod.collect_gpu("linux", source=NoDriver(), root=str(tmp_path))
    assert g == Gpu(driver_present=True, driver_version="550.54.15", source="/proc/driver/nvidia/version")


def test_device_facts_reach_the_snapshot() -> None:
    g = gpu_mod.collect_gpu("linux", source=FakeDriver())
    assert g.devices == (GpuDevice("NVIDIA H100 80GB HBM3", 81559, "9.0"),)
