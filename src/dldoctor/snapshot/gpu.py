"""NVIDIA driver facts of the host for the Snapshot, learned without loading CUDA.

The driver is the one thing CI and most developer machines cannot have, so it is reached
through one narrow seam: :mod:`dldoctor.snapshot.nvidia` (NVML, else ``nvidia-smi``; its
``GpuSource`` is what tests replace). This module adds the file-only fallbacks for a driver
whose tools are missing:
``/proc/driver/nvidia/version`` on Linux, ``System32\\nvcuda.dll`` on Windows.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from dldoctor.snapshot import nvidia
from dldoctor.snapshot.model import Gpu

PROC_VERSION = "/proc/driver/nvidia/version"
_NVRM = re.compile(r"NVRM version:.*?Kernel Module(?:\s+for\s+\S+)?\s+([0-9]+(?:\.[0-9]+)+)")


def parse_proc_version(text: str) -> Optional[str]:
    """Driver version from /proc/driver/nvidia/version ("NVRM version: ... 535.104.05 ...")."""
    m = _NVRM.search(text)
    return m.group(1) if m else None


def collect_gpu(system: str, source: Optional[nvidia.GpuSource] = None, root: str = "/") -> Gpu:
    """The host's NVIDIA driver and devices, or why none was found."""
    if system != "macos":
        info = nvidia.query_driver(source)
        if info.driver_present:
            return info
    if system == "linux":
        try:
            with open(os.path.join(root, PROC_VERSION.lstrip("/")), encoding="utf-8", errors="replace") as fh:
                version = parse_proc_version(fh.read(4096))
            if version:
                return Gpu(True, version, None, (), PROC_VERSION)
        except OSError:
            pass
        return Gpu(False, source=f"no NVIDIA driver found (checked NVML, nvidia-smi and {PROC_VERSION})")
    if system == "windows":
        sysroot = os.environ.get("SYSTEMROOT", r"C:\Windows")
        if os.path.isfile(os.path.join(sysroot, "System32", "nvcuda.dll")):
            return Gpu(True, None, None, (), r"System32\nvcuda.dll")
        return Gpu(False, source=r"no NVIDIA driver found (checked NVML, nvidia-smi and System32\nvcuda.dll)")
    return Gpu(False, source="no NVIDIA GPUs on macOS")
