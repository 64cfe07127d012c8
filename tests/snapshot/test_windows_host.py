"""Collecting Windows host facts: the registry through a fake reader (the one seam), the
System32 side through real DLLs taken from real wheels."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Dict, Optional

import pytest

from dldoctor.snapshot import windows_host as wh
from dldoctor.snapshot.model import PagingFile

from ..builders import fetch

ADAPTERS = wh.DISPLAY_CLASS_KEY
REGISTRY: Dict[str, wh.RegKey] = {
    wh.KNOWN_DLLS_KEY: wh.RegKey({"kernel32": "kernel32.dll", "ole32": "ole32.dll",
                                  "DllDirectory": "%SystemRoot%\\system32"}),
    wh.MEMORY_KEY: wh.RegKey({"PagingFiles": ["C:\\pagefile.sys 2048 4096", "D:\\pagefile.sys 0 0"],
                               "ExistingPageFiles": ["\\??\\C:\\pagefile.sys"]}),
    wh.GRAPHICS_DRIVERS_KEY: wh.RegKey({"TdrDelay": 10}),
    wh.GPU_PREFERENCES_KEY: wh.RegKey({"C:\\Python311\\python.exe": "GpuPreference=2;",
                                       "C:\\Games\\game.exe": "GpuPreference=2;",
                                       wh.GLOBAL_GPU_SETTING: "SwapEffectUpgradeEnable=1;"}),
    ADAPTERS: wh.RegKey({}, ("0000", "0001", "Properties")),
    ADAPTERS + "\\0000": wh.RegKey({"DriverDesc": "Intel(R) UHD Graphics 630", "ProviderName": "Intel Corporation",
                                    "MatchingDeviceId": "PCI\\VEN_8086&DEV_3E9B"}),
    ADAPTERS + "\\0001": wh.RegKey({"DriverDesc": "NVIDIA GeForce GTX 1650", "ProviderName": "NVIDIA",
                                    "DriverVersion": "32.0.15.6094", "MatchingDeviceId": "PCI\\VEN_10DE&DEV_1F91"}),
}


def fake_reader(path: str) -> Optional[wh.RegKey]:
    return REGISTRY.get(path)


@pytest.fixture(scope="module")
def system32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A System32 holding real msvcp140.dll / vcruntime140.dll copies from real wheels."""
    folder = tmp_path_factory.mktemp("System32")
    with zipfile.ZipFile(fetch("pyarrow==17.0.0")) as zf:
        (folder / "MSVCP140.dll").write_bytes(zf.read("pyarrow/msvcp140.dll"))
    with zipfile.ZipFile(fetch("intel-openmp==2026.2.0")) as zf:  # not a runtime: must be ignored
        (folder / "libiomp5md.dll").write_bytes(zf.read("intel_openmp-2026.2.0.data/data/Library/bin/libiomp5md.dll"))
    (folder / "vcruntime140.dll").write_bytes(b"MZ truncated")
    return folder


def test_collect_from_fake_registry_and_real_dlls(system32: Path, tmp_path: Path) -> None:
    cuda = tmp_path / "CUDA" / "v12.4"
    (cuda / "bin").mkdir(parents=True)
    for name in ("cudart64_12.dll", "cublas64_12.dll", "nvcc.exe"):
        (cuda / "bin" / name).write_bytes(b"")
    env = {"CUDA_PATH": str(cuda), "CUDA_PATH_V12_4": str(cuda), "PATH": "x"}
    host = wh.collect_windows_host(fake_reader, str(system32), env, physical_memory_mib=16254)
    by_name = {d.name: d for d in host.vc_runtime}
    assert by_name["msvcp140.dll"].file_version == "14.28.29334.0"  # pyarrow 17's real copy
    assert by_name["msvcp140.dll"].machine == "x86_64"
    assert by_name["vcruntime140.dll"].error and by_name["vcruntime140.dll"].file_version is None
    assert set(by_name) == {"msvcp140.dll", "vcruntime140.dll"}
    assert host.known_dlls == ("kernel32.dll", "ole32.dll")
    assert [a.description for a in host.adapters] == ["Intel(R) UHD Graphics 630", "NVIDIA GeForce GTX 1650"]
    assert host.adapters[1].device_id == "pci\\ven_10de&dev_1f91"
    assert set(host.gpu_preferences) == {"C:\\Python311\\python.exe", wh.GLOBAL_GPU_SETTING}
    assert host.paging_files == (PagingFile("C:\\pagefile.sys", 2048, 4096, False),
                                 PagingFile("D:\\pagefile.sys", 0, 0, True))
    assert host.tdr_delay == 10 and host.tdr_level is None
    assert [(t.var, t.version, t.bin_dlls) for t in host.cuda_toolkits] == [
        ("CUDA_PATH", "12.4", ("cublas64_12.dll", "cudart64_12.dll")),
        ("CUDA_PATH_V12_4", "12.4", ("cublas64_12.dll", "cudart64_12.dll")),
    ]
    assert host.physical_memory_mib == 16254 and host.errors == ()


def test_unreadable_key_is_an_error_not_an_unset_value(system32: Path) -> None:
    def denied(path: str) -> Optional[wh.RegKey]:
        if path == wh.GRAPHICS_DRIVERS_KEY:
            raise PermissionError(13, "Access is denied")
        return fake_reader(path)

    host = wh.collect_windows_host(denied, str(system32), {})
    assert host.tdr_delay is None
    assert host.errors == (f"{wh.GRAPHICS_DRIVERS_KEY}: Access is denied",)


def test_real_winreg_seam_refuses_politely_off_windows() -> None:
    with pytest.raises(OSError):
        wh.winreg_reader(wh.KNOWN_DLLS_KEY)
    host = wh.collect_windows_host(wh.winreg_reader, "/nonexistent", {})
    assert host.vc_runtime == () and len(host.errors) == 5


@pytest.mark.parametrize(("value", "expected"), [
    (["?:\\pagefile.sys"], [PagingFile("?:\\pagefile.sys", 0, 0, True)]),
    ("C:\\pagefile.sys 1024 1024", [PagingFile("C:\\pagefile.sys", 1024, 1024, False)]),
    ([""], []),
    (None, []),
])
def test_parse_paging_files(value: object, expected: list) -> None:
    assert list(wh.parse_paging_files(value)) == expected


def test_gpu_preference_parsing() -> None:
    assert wh.gpu_preference("SwapEffectUpgradeEnable=1;GpuPreference=2;") == 2
    assert wh.gpu_preference("SwapEffectUpgradeEnable=1;") is None


def test_cuda_version_from_path_when_no_versioned_variable() -> None:
    path = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"
    (tools,) = wh.cuda_toolkits({"CUDA_PATH": path}, list_dir=lambda p: [])
    assert tools.version == "11.8" and tools.bin_dlls == ()
