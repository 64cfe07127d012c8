"""NVIDIA driver facts of the host, learned without loading any CUDA library.

The driver is the one thing CI and most developer machines cannot have, so this module is
the narrow seam (DESIGN, quality bar): ``collect_gpu`` only reads well-known files and, if
present, asks ``nvidia-smi``; ``parse_*`` functions are pure and tested on captured real
outputs. Tests that need a driver build a ``Gpu`` value; nothing else is faked.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Callable, List, Optional, Sequence

from dldoctor.snapshot.model import Gpu, GpuDevice

PROC_VERSION = "/proc/driver/nvidia/version"
_NVRM = re.compile(r"NVRM version:.*?Kernel Module(?:\s+for\s+\S+)?\s+([0-9]+(?:\.[0-9]+)+)")
SMI_QUERY = ("--query-gpu=name,memory.total,compute_cap,driver_version", "--format=csv,noheader,nounits")


def parse_proc_version(text: str) -> Optional[str]:
    """Driver version from /proc/driver/nvidia/version ("NVRM version: ... 535.104.05 ...")."""
    m = _NVRM.search(text)
    return m.group(1) if m else None


def parse_smi_csv(text: str) -> List[GpuDevice]:
    """Devices from ``nvidia-smi --query-gpu=name,memory.total,compute_cap,driver_version``."""
    devices = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 3 or not parts[0]:
            continue
        mem = int(float(parts[1])) if re.fullmatch(r"[0-9.]+", parts[1]) else None
        cap = parts[2] if re.fullmatch(r"[0-9]+\.[0-9]+", parts[2]) else None
        devices.append(GpuDevice(name=parts[0], memory_mib=mem, compute_capability=cap))
    return devices


def parse_smi_header(text: str) -> Optional[str]:
    """The 'CUDA Version: 12.4' the driver supports, from plain ``nvidia-smi`` output."""
    m = re.search(r"CUDA Version:\s*([0-9]+\.[0-9]+)", text)
    return m.group(1) if m else None


Runner = Callable[[Sequence[str]], Optional[str]]


def _run(cmd: Sequence[str]) -> Optional[str]:
    try:
        done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def collect_gpu(system: str, run: Runner = _run, root: str = "/") -> Gpu:
    """Probe the host for an NVIDIA driver (Linux: /proc + nvidia-smi; Windows: nvcuda.dll)."""
    driver: Optional[str] = None
    source = []
    if system == "linux":
        try:
            with open(os.path.join(root, PROC_VERSION.lstrip("/")), encoding="utf-8", errors="replace") as fh:
                driver = parse_proc_version(fh.read(4096))
            source.append(PROC_VERSION)
        except OSError:
            pass
    elif system == "windows":
        sysroot = os.environ.get("SYSTEMROOT", r"C:\Windows")
        if os.path.isfile(os.path.join(sysroot, "System32", "nvcuda.dll")):
            source.append(r"System32\nvcuda.dll")
            driver = driver or "present"
    smi = shutil.which("nvidia-smi") if run is _run else "nvidia-smi"
    devices: List[GpuDevice] = []
    cuda = None
    if smi:
        csv_out = run([smi, *SMI_QUERY])
        if csv_out:
            devices = parse_smi_csv(csv_out)
            versions = [p.split(",")[-1].strip() for p in csv_out.splitlines() if p.count(",") >= 3]
            driver = versions[0] if versions and versions[0] else driver
            source.append("nvidia-smi")
        header = run([smi])
        cuda = parse_smi_header(header) if header else None
    if driver is None and not devices:
        return Gpu(driver_present=False, source="no NVIDIA driver found (" + (
            "checked " + PROC_VERSION + " and nvidia-smi" if system == "linux" else "checked nvcuda.dll and nvidia-smi"
        ) + ")")
    return Gpu(driver_present=True, driver_version=None if driver == "present" else driver,
               cuda_driver_version=cuda, devices=tuple(devices), source=", ".join(source))
