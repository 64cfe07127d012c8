"""Windows checks judged on a recorded Windows snapshot built from real wheels, on any OS."""

from __future__ import annotations

import dataclasses
import json
import posixpath
from pathlib import Path

import pytest

from dldoctor.checks import run_checks
from dldoctor.snapshot.model import CudaToolkit, PagingFile, Snapshot, SystemDll, WindowsHost

from ..builders import messages, snapshot

SNAP = Path(__file__).resolve().parents[1] / "data" / "snapshots" / "win-seed000-laptop.json"
SLUGS = ("missing-vc-runtime", "hybrid-graphics", "pagefile-too-small", "gpu-driver-timeout", "cuda-toolkit-mismatch")


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(SNAP.read_text(encoding="utf-8"))


@pytest.fixture
def snap(raw: dict) -> Snapshot:
    return Snapshot.from_dict(raw)


def with_host(snap: Snapshot, **changes: object) -> Snapshot:
    assert snap.windows is not None
    return snapshot(snap, **{f"windows__{k}": v for k, v in changes.items()})


def test_every_windows_check_fires_on_the_recorded_laptop(snap: Snapshot) -> None:
    for slug in SLUGS:
        assert messages(snap, slug), slug


def test_recorded_snapshot_round_trips(snap: Snapshot) -> None:
    assert Snapshot.from_dict(json.loads(json.dumps(snap.to_dict()))) == snap


def test_checks_use_windows_path_rules_not_the_hosts(snap: Snapshot, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(os, "path", posixpath)  # whatever the host, judging must not change
    assert messages(snap, "missing-vc-runtime")


def test_missing_vc_runtime_names_the_real_missing_dll(snap: Snapshot) -> None:
    found = messages(snap, "missing-vc-runtime")
    assert any(m.startswith("vcruntime140_threads.dll not found") and "torch_cpu.dll" in m for m in found)
    assert any("msvcp140.dll 14.28.29334.0 in System32 is older than 14.40, which torch 2.15.0" in m for m in found)


def test_missing_vc_runtime_silent_with_a_current_redistributable(snap: Snapshot, raw: dict) -> None:
    current = raw["_provenance"]["healthy_msvcp140"].split(":")[0]  # numpy.libs' real copy: 14.40.33810.0
    assert snap.windows is not None
    vc = [dataclasses.replace(d, file_version=current) for d in snap.windows.vc_runtime]
    vc.append(SystemDll("vcruntime140_threads.dll", "C:\\Windows\\System32\\vcruntime140_threads.dll", current))
    assert messages(with_host(snap, vc_runtime=tuple(vc)), "missing-vc-runtime") == []


def test_missing_vc_runtime_satisfied_by_a_copy_next_to_the_requester(snap: Snapshot) -> None:
    torch_cpu = next(lib for lib in snap.libraries if lib.path.lower().endswith("torch_cpu.dll"))
    twin = dataclasses.replace(torch_cpu, path=torch_cpu.path[: -len("torch_cpu.dll")] + "VCRUNTIME140_THREADS.dll",
                               info=None)
    snap = dataclasses.replace(snap, libraries=(*snap.libraries, twin))
    assert not any("vcruntime140_threads" in m for m in messages(snap, "missing-vc-runtime"))


@pytest.mark.parametrize("exe", ["C:\\venv\\Scripts\\python.exe", "c:\\python311\\PYTHON.EXE"])
def test_hybrid_graphics_silent_with_high_performance_preference(snap: Snapshot, exe: str) -> None:
    # the venv launcher's exe or the base python.exe (the process that really loads torch)
    fixed = with_host(snap, gpu_preferences={exe: "GpuPreference=2;"})
    assert messages(fixed, "hybrid-graphics") == []
    power_saving = with_host(snap, gpu_preferences={exe: "GpuPreference=1;"})
    assert messages(power_saving, "hybrid-graphics")


def test_hybrid_graphics_needs_two_kinds_of_adapter(snap: Snapshot) -> None:
    assert snap.windows is not None
    nvidia_only = tuple(a for a in snap.windows.adapters if "NVIDIA" in a.description)
    assert messages(with_host(snap, adapters=nvidia_only), "hybrid-graphics") == []


def test_pagefile(snap: Snapshot) -> None:
    managed = with_host(snap, paging_files=(PagingFile("C:\\pagefile.sys", 0, 0, True),))
    assert messages(managed, "pagefile-too-small") == []
    big = with_host(snap, paging_files=(PagingFile("C:\\pagefile.sys", 16384, 32768, False),))
    assert messages(big, "pagefile-too-small") == []
    none = with_host(snap, paging_files=(), existing_page_files=())
    assert messages(none, "pagefile-too-small")[0].startswith("no paging file")


def test_pagefile_and_tdr_need_a_cuda_framework(snap: Snapshot) -> None:
    cpu = dataclasses.replace(snap, frameworks=tuple(f for f in snap.frameworks if f.name == "torch"))
    assert messages(cpu, "pagefile-too-small") == []
    assert messages(cpu, "gpu-driver-timeout") == []


def test_tdr(snap: Snapshot) -> None:
    assert messages(with_host(snap, tdr_delay=60), "gpu-driver-timeout") == []
    assert messages(with_host(snap, tdr_level=0), "gpu-driver-timeout") == []
    assert messages(with_host(snap, tdr_delay=2), "gpu-driver-timeout")


def test_cuda_toolkit_mismatch(snap: Snapshot) -> None:
    match = CudaToolkit("CUDA_PATH", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0", "13.0")
    assert messages(with_host(snap, cuda_toolkits=(match,)), "cuda-toolkit-mismatch") == []
    assert messages(snap, "cuda-toolkit-mismatch") == [
        "CUDA_PATH is CUDA 12.4 but onnxruntime 1.31.1 was built with CUDA 13.0"]


def test_windows_checks_skip_other_snapshots(snap: Snapshot) -> None:
    linux = dataclasses.replace(snap, host=dataclasses.replace(snap.host, os="linux"), windows=None)
    for r in run_checks(linux, select=list(SLUGS[:4])):
        assert r.findings == () and r.skipped
    bare = dataclasses.replace(snap, windows=WindowsHost())
    assert messages(bare, "hybrid-graphics") == []


def test_a_runtime_copy_of_a_required_package_is_loaded_before_its_plugins(snap: Snapshot) -> None:
    """PySide6-Addons' Qt plugins import msvcp140.dll, which PySide6-Essentials (a requirement of
    Addons) ships beside Qt6Core.dll: Qt6Core loads it before Qt opens any plugin, so the plugins
    get it by base name (the fresh-eyes review's PySide6 wheel set). Without that requirement the
    copy belongs to a package that need not be imported first, and the plugin lacks it."""
    site = "C:\\venv\\Lib\\site-packages"
    torch_cpu = next(lib for lib in snap.libraries if lib.path.lower().endswith("torch_cpu.dll"))
    plugin = dataclasses.replace(torch_cpu, path=f"{site}\\PySide6\\plugins\\geometryloaders\\gltfloader.dll",
                                 dist="PySide6_Addons",
                                 info={**(torch_cpu.info or {}), "needed": ["msvcp140.dll", "kernel32.dll"]})
    runtime = dataclasses.replace(torch_cpu, path=f"{site}\\PySide6\\msvcp140.dll", dist="PySide6_Essentials",
                                  info={**(torch_cpu.info or {}), "needed": ["kernel32.dll"]})
    core = dataclasses.replace(torch_cpu, path=f"{site}\\PySide6\\Qt6Core.dll", dist="PySide6_Essentials",
                               info={**(torch_cpu.info or {}), "needed": ["msvcp140.dll", "kernel32.dll"]})

    def judged(requires: tuple) -> list:  # type: ignore[type-arg]
        base = snap.distributions[0]
        dists = (*snap.distributions,
                 dataclasses.replace(base, name="PySide6_Addons", version="6.12.0", requires=requires),
                 dataclasses.replace(base, name="PySide6_Essentials", version="6.12.0", requires=()))
        s = dataclasses.replace(snap, libraries=(plugin, runtime, core), distributions=dists)
        return [m for m in messages(with_host(s, vc_runtime=()), "missing-vc-runtime") if "gltfloader.dll" in m]

    assert judged(("PySide6_Essentials==6.12.0", "shiboken6==6.12.0")) == []
    assert judged(()) != []
