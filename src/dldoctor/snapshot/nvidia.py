"""The NVIDIA driver from outside any framework: NVML first, then ``nvidia-smi``.

The only part that touches the system is a :class:`GpuSource` (two calls: NVML facts, run
``nvidia-smi`` with arguments); everything else is pure ``parse_*`` over captured text, so
the logic is tested on real outputs posted in public issues, on a machine with no GPU.
``pynvml`` (``nvidia-ml-py``) is optional and imported lazily, only here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any, List, Optional, Protocol, Sequence, Tuple

from dldoctor.snapshot.model import Gpu, GpuDevice

QUERY = "index,name,driver_version,memory.total,compute_cap"
QUERY_OLD = "index,name,driver_version,memory.total"  # drivers < 510 lack compute_cap
_HEADER = re.compile(
    r"Driver Version:\s*(?P<driver>[0-9][0-9.]*)\s+CUDA(?: UMD)? Version:\s*(?P<cuda>[0-9.]+|N/A)")
_HEADER_NO_CUDA = re.compile(r"Driver Version:\s*(?P<driver>[0-9][0-9.]*)")
_MIB = re.compile(r"^\s*(\d+)\s*MiB\s*$")


class GpuSource(Protocol):
    """The narrow seam to the driver; swap it in tests or on other machines."""

    def nvml(self) -> Optional[Gpu]:
        """Facts through NVML, or None when NVML (or nvidia-ml-py) is not usable."""

    def nvidia_smi(self, args: Sequence[str]) -> Optional[Tuple[int, str]]:
        """(exit status, stdout+stderr) of nvidia-smi, or None when it is not installed."""


def parse_smi_header(text: str) -> Tuple[Optional[str], Optional[str]]:
    """(driver version, supported CUDA version) from the banner of plain ``nvidia-smi``.

    Old drivers (< 410) print no CUDA version; drivers from 2026 label it ``CUDA UMD Version``.
    """
    m = _HEADER.search(text)
    if m:
        cuda = m.group("cuda")
        return m.group("driver"), (None if cuda == "N/A" else cuda)
    m2 = _HEADER_NO_CUDA.search(text)
    return (m2.group("driver"), None) if m2 else (None, None)


def _capability(text: str) -> Optional[str]:
    m = re.match(r"^\s*(\d+)\.(\d+)\s*$", text)
    return f"{int(m.group(1))}.{int(m.group(2))}" if m else None


def parse_smi_csv(text: str) -> Tuple[Optional[str], Tuple[GpuDevice, ...]]:
    """(driver version, devices) from ``nvidia-smi --query-gpu=... --format=csv``.

    Columns are found by the header row, so any subset or order of QUERY's fields works;
    units (`` MiB``) and ``[N/A]`` values are tolerated.
    """
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines or "," not in lines[0]:
        return None, ()
    header = [h.strip().split(" [", 1)[0] for h in lines[0].split(",")]
    if "name" not in header:
        return None, ()
    driver: Optional[str] = None
    devices: List[GpuDevice] = []
    for pos, line in enumerate(lines[1:]):
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(header):
            continue
        row = dict(zip(header, cells))
        driver = driver or (row.get("driver_version") or None)
        index = int(row["index"]) if row.get("index", "").isdigit() else pos
        mem = _MIB.match(row.get("memory.total", ""))
        devices.append(GpuDevice(row.get("name", ""), int(mem.group(1)) if mem else None,
                                 _capability(row.get("compute_cap", "")), index))
    return driver, tuple(devices)


def _cuda_from_int(value: int) -> str:
    """NVML's cudaDriverVersion 12040 -> "12.4"."""
    return f"{value // 1000}.{(value % 1000) // 10}"


class SystemGpuSource:
    """The real machine: nvidia-ml-py if installed, ``nvidia-smi`` on PATH otherwise."""

    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout

    def nvml(self) -> Optional[Gpu]:
        try:
            import pynvml  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return None
        nv: Any = pynvml
        try:
            nv.nvmlInit()
        except Exception:  # NVMLError_LibraryNotFound / DriverNotLoaded: no driver
            return None
        try:
            driver = nv.nvmlSystemGetDriverVersion()
            driver = driver.decode() if isinstance(driver, bytes) else str(driver)
            cuda = _cuda_from_int(int(nv.nvmlSystemGetCudaDriverVersion()))
            devices = []
            for i in range(int(nv.nvmlDeviceGetCount())):
                handle = nv.nvmlDeviceGetHandleByIndex(i)
                name = nv.nvmlDeviceGetName(handle)
                mem = nv.nvmlDeviceGetMemoryInfo(handle)
                major, minor = nv.nvmlDeviceGetCudaComputeCapability(handle)
                devices.append(GpuDevice(name.decode() if isinstance(name, bytes) else str(name),
                                         int(mem.total) // (1024 * 1024), f"{int(major)}.{int(minor)}", i))
            return Gpu(True, driver, cuda, tuple(devices), "nvml")
        except Exception as exc:
            return Gpu(True, None, None, (), "nvml", error=f"NVML: {exc}")
        finally:
            try:
                nv.nvmlShutdown()
            except Exception:
                pass

    def nvidia_smi(self, args: Sequence[str]) -> Optional[Tuple[int, str]]:
        exe = shutil.which("nvidia-smi")
        if exe is None:
            return None
        try:
            done = subprocess.run([exe, *args], stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=self.timeout, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return (-1, str(exc))
        return done.returncode, (done.stdout + done.stderr).decode("utf-8", errors="replace")


def query_driver(source: Optional[GpuSource] = None) -> Gpu:
    """What the driver says; ``Gpu(driver_present=False)`` when there is none."""
    src = source if source is not None else SystemGpuSource()
    info = src.nvml()
    if info is not None and info.driver_version:
        return info
    header = src.nvidia_smi(())
    if header is None:
        return Gpu(False, source="none", error="no NVIDIA driver (nvidia-smi not found, NVML not usable)")
    status, text = header
    driver, cuda = parse_smi_header(text)
    if status != 0 or driver is None:
        first = text.strip().splitlines()[0] if text.strip() else f"exit {status}"
        return Gpu(False, source="nvidia-smi", error=f"nvidia-smi failed: {first}"[:300])
    devices: Tuple[GpuDevice, ...] = ()
    for query in (QUERY, QUERY_OLD):
        out = src.nvidia_smi((f"--query-gpu={query}", "--format=csv,noheader=false"))
        if out is not None and out[0] == 0:
            _, devices = parse_smi_csv(out[1])
            if devices:
                break
    return Gpu(True, driver, cuda, devices, "nvidia-smi")
