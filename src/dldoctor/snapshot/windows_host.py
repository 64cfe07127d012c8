"""Windows host facts: the registry and System32 facts the seeds' failures depend on.

Gathered in dldoctor's own process (the host is the same machine as the target), only on
Windows. The registry is the one thing that cannot exist elsewhere, so all of it goes
through one seam, :data:`RegistryReader` (a function: key path -> :class:`RegKey` or None),
and everything else here is parsing that works on any OS. Keys read:

* ``HKLM\\...\\Session Manager\\KnownDLLs``: names the loader maps from \\KnownDlls.
* ``HKLM\\...\\Control\\Class\\{4d36e968-...}\\00xx``: display adapters (DriverDesc,
  ProviderName, DriverVersion, MatchingDeviceId); an integrated plus a discrete adapter is
  hybrid graphics, where Windows may keep the discrete GPU asleep (seed 000).
* ``HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences``: per-exe GPU preference
  (value name = exe path, data ``GpuPreference=2;`` = high performance): the seed 000 fix.
  Only python*.exe entries and the global setting are kept (the rest is none of our business).
* ``HKLM\\...\\Session Manager\\Memory Management``: PagingFiles / ExistingPageFiles (1455).
* ``HKLM\\...\\Control\\GraphicsDrivers``: TdrDelay / TdrLevel (driver resets on long kernels).
"""

from __future__ import annotations

import ntpath
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from dldoctor.snapshot.model import CudaToolkit, DisplayAdapter, PagingFile, SystemDll, WindowsHost

CONTROL = "HKLM\\SYSTEM\\CurrentControlSet\\Control"
KNOWN_DLLS_KEY = CONTROL + "\\Session Manager\\KnownDLLs"
MEMORY_KEY = CONTROL + "\\Session Manager\\Memory Management"
DISPLAY_CLASS_KEY = CONTROL + "\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}"
GRAPHICS_DRIVERS_KEY = CONTROL + "\\GraphicsDrivers"
GPU_PREFERENCES_KEY = "HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences"
GLOBAL_GPU_SETTING = "DirectXUserGlobalSettings"
CUDA_DLL = re.compile(r"^(cudart64_|cudnn|cublas64_|cublaslt64_).*\.dll$", re.IGNORECASE)
CUDA_PATH_VAR = re.compile(r"^CUDA_PATH(?:_V(\d+)_(\d+))?$", re.IGNORECASE)


@dataclass(frozen=True)
class RegKey:
    """One registry key: its values (REG_SZ -> str, DWORD -> int, MULTI_SZ -> list) and subkeys."""

    values: Dict[str, Any] = field(default_factory=dict)
    subkeys: Tuple[str, ...] = ()


RegistryReader = Callable[[str], Optional[RegKey]]  # None: no such key; OSError: unreadable


def winreg_reader(path: str) -> Optional[RegKey]:  # pragma: no cover - needs a Windows registry
    """The real seam: read one key with ``winreg`` (Windows only)."""
    if sys.platform != "win32":
        raise OSError("the Windows registry exists only on Windows")
    import winreg

    hive_name, _, sub = path.partition("\\")
    hive = {"HKLM": winreg.HKEY_LOCAL_MACHINE, "HKCU": winreg.HKEY_CURRENT_USER}[hive_name]
    try:
        key = winreg.OpenKey(hive, sub)
    except FileNotFoundError:
        return None
    with key:
        n_sub, n_val, _ = winreg.QueryInfoKey(key)
        subkeys = tuple(winreg.EnumKey(key, i) for i in range(n_sub))
        values = {}
        for i in range(n_val):
            name, data, _kind = winreg.EnumValue(key, i)
            values[name] = data
    return RegKey(values, subkeys)


def _read(reader: RegistryReader, path: str, errors: List[str]) -> Optional[RegKey]:
    try:
        return reader(path)
    except OSError as exc:
        errors.append(f"{path}: {exc.strerror or exc}")
        return None


def _int(value: Any) -> Optional[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _lines(value: Any) -> Tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        return ()
    return tuple(str(v).strip() for v in value if str(v).strip())


def parse_known_dlls(key: Optional[RegKey]) -> Tuple[str, ...]:
    if key is None:
        return ()
    names = (str(v).lower() for k, v in key.values.items()
             if isinstance(v, str) and not k.lower().startswith("dlldirectory"))
    return tuple(sorted(set(names)))


def parse_paging_files(value: Any) -> Tuple[PagingFile, ...]:
    """``C:\\pagefile.sys 4096 8192`` (fixed), ``C:\\pagefile.sys 0 0`` or ``?:\\pagefile.sys``
    (system managed)."""
    out = []
    for line in _lines(value):
        parts = line.split()
        sizes = [int(p) for p in parts[1:3] if p.isdigit()]
        initial, maximum = [*sizes, 0, 0][:2]
        managed = len(sizes) < 2 or (initial == 0 and maximum == 0)
        out.append(PagingFile(parts[0], initial, maximum, managed))
    return tuple(out)


def parse_adapters(reader: RegistryReader, errors: List[str]) -> Tuple[DisplayAdapter, ...]:
    root = _read(reader, DISPLAY_CLASS_KEY, errors)
    if root is None:
        return ()
    out = []
    for sub in root.subkeys:
        if not sub.isdigit():  # "Properties", "Configuration"
            continue
        key = _read(reader, f"{DISPLAY_CLASS_KEY}\\{sub}", errors)
        if key is None or not isinstance(key.values.get("DriverDesc"), str):
            continue
        v = key.values
        out.append(DisplayAdapter(
            description=str(v["DriverDesc"]),
            provider=str(v.get("ProviderName", "")),
            driver_version=str(v.get("DriverVersion", "")),
            device_id=str(v.get("MatchingDeviceId", "")).lower(),
        ))
    return tuple(out)


def parse_gpu_preferences(key: Optional[RegKey]) -> Dict[str, str]:
    if key is None:
        return {}
    keep = {}
    for name, data in key.values.items():
        base = ntpath.basename(name).lower()
        if name == GLOBAL_GPU_SETTING or (base.startswith("python") and base.endswith(".exe")):
            keep[name] = str(data)
    return keep


def gpu_preference(data: str) -> Optional[int]:
    """``"SwapEffectUpgradeEnable=1;GpuPreference=2;"`` -> 2 (0 default, 1 power saving, 2 high)."""
    for item in data.split(";"):
        name, _, value = item.partition("=")
        if name.strip().lower() == "gpupreference" and value.strip().isdigit():
            return int(value.strip())
    return None


def cuda_toolkits(
    env: Mapping[str, str], list_dir: Callable[[str], Iterable[str]] = os.listdir
) -> Tuple[CudaToolkit, ...]:
    """CUDA_PATH and CUDA_PATH_Vx_y (set by the CUDA installer), with the runtime DLLs in bin."""
    by_path: Dict[str, str] = {}
    found = []
    for var in sorted(env):
        m = CUDA_PATH_VAR.match(var)
        if not m or not env[var].strip():
            continue
        path = env[var].strip().strip('"')
        version = f"{m.group(1)}.{m.group(2)}" if m.group(1) else None
        if version:
            by_path[ntpath.normcase(ntpath.normpath(path))] = version
        found.append((var, path, version))
    out: List[CudaToolkit] = []
    for var, path, version in found:
        if version is None:
            version = by_path.get(ntpath.normcase(ntpath.normpath(path)))
            m = re.search(r"[\\/]v(\d+\.\d+)[\\/]*$", path)
            version = version or (m.group(1) if m else None)
        try:
            dlls = tuple(sorted(n for n in list_dir(os.path.join(path, "bin")) if CUDA_DLL.match(n)))
        except OSError:
            dlls = ()
        out.append(CudaToolkit(var=var, path=path, version=version, bin_dlls=dlls))
    return tuple(out)


def _file_version(path: str) -> SystemDll:
    from dldoctor.binary import BinaryFormatError, read_binary

    name = os.path.basename(path).lower()
    try:
        info = read_binary(path)
    except (BinaryFormatError, OSError) as exc:
        return SystemDll(name=name, path=path, error=str(exc))
    return SystemDll(name=name, path=path, file_version=info.file_version, machine=info.machine)


def vc_runtime_dlls(folders: Sequence[str], names: Sequence[str]) -> Tuple[SystemDll, ...]:
    """The VC++ runtime DLLs present in ``folders`` (System32, python.exe's folder)."""
    out: List[SystemDll] = []
    for folder in folders:
        try:
            present = {n.lower(): n for n in os.listdir(folder)}
        except OSError:
            continue
        out.extend(_file_version(os.path.join(folder, present[n])) for n in names if n in present)
    return tuple(out)


def collect_windows_host(
    reader: RegistryReader,
    system32: str,
    env: Mapping[str, str],
    app_dirs: Sequence[str] = (),
    physical_memory_mib: Optional[int] = None,
    list_dir: Callable[[str], Iterable[str]] = os.listdir,
) -> WindowsHost:
    """Every Windows host fact, from a registry ``reader`` and the local file system."""
    from dldoctor.conditions.windows import load_vc_runtime

    errors: List[str] = []
    memory = _read(reader, MEMORY_KEY, errors)
    tdr = _read(reader, GRAPHICS_DRIVERS_KEY, errors)
    mem_values = memory.values if memory else {}
    tdr_values = tdr.values if tdr else {}
    return WindowsHost(
        system32=system32,
        vc_runtime=vc_runtime_dlls([system32, *app_dirs], load_vc_runtime().dlls),
        known_dlls=parse_known_dlls(_read(reader, KNOWN_DLLS_KEY, errors)),
        adapters=parse_adapters(reader, errors),
        gpu_preferences=parse_gpu_preferences(_read(reader, GPU_PREFERENCES_KEY, errors)),
        paging_files=parse_paging_files(mem_values.get("PagingFiles")),
        existing_page_files=_lines(mem_values.get("ExistingPageFiles")),
        physical_memory_mib=physical_memory_mib,
        tdr_delay=_int(tdr_values.get("TdrDelay")),
        tdr_level=_int(tdr_values.get("TdrLevel")),
        cuda_toolkits=cuda_toolkits(env, list_dir),
        errors=tuple(errors),
    )


def physical_memory_mib() -> Optional[int]:  # pragma: no cover - Windows only
    """Total RAM through GlobalMemoryStatusEx."""
    import ctypes

    class MemoryStatusEx(ctypes.Structure):
        _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong)] + [
            (n, ctypes.c_ulonglong)
            for n in ("total_phys", "avail_phys", "total_page", "avail_page", "total_virtual", "avail_virtual", "ext")
        ]

    status = MemoryStatusEx()
    status.dwLength = ctypes.sizeof(MemoryStatusEx)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined,unused-ignore]
        return None
    return int(status.total_phys // (1024 * 1024))


def collect_here(app_dirs: Sequence[str]) -> Optional[WindowsHost]:  # pragma: no cover - Windows only
    """The host facts of this Windows machine; None elsewhere."""
    if os.name != "nt":
        return None
    root = os.environ.get("SYSTEMROOT", "C:\\Windows")
    return collect_windows_host(
        winreg_reader, os.path.join(root, "System32"), dict(os.environ), app_dirs, physical_memory_mib()
    )
