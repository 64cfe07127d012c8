"""Checks over Windows host facts (``Snapshot.windows``): VC++ runtime, GPU power policy,
paging file, TDR, CUDA toolkits.

They judge the snapshot only, with Windows path rules (:func:`pathmod`), so a Windows
snapshot is judged the same on Linux, and ``dldoctor wheels`` reuses them on the snapshot it
builds from a wheel set and a stock-Windows profile.
"""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Set, Tuple

from packaging.utils import canonicalize_name
from packaging.version import Version

from dldoctor.checks import check, finding
from dldoctor.checks._requirements import required_closure
from dldoctor.checks._util import norm, parsed_version, pathmod
from dldoctor.conditions import version_key
from dldoctor.conditions.windows import host_data, load_vc_runtime
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import DisplayAdapter, Framework, Snapshot, WindowsHost

DL_FRAMEWORKS = ("torch", "paddle", "tensorflow", "onnxruntime")


def _windows(snap: Snapshot) -> str:
    if snap.host.os != "windows":
        return "not a Windows snapshot"
    return "" if snap.windows is not None else "no Windows host facts in the snapshot"


def _host(snap: Snapshot) -> WindowsHost:
    assert snap.windows is not None  # guaranteed by _windows()
    return snap.windows


def _dl_frameworks(snap: Snapshot) -> List[Framework]:
    return [f for f in snap.frameworks if f.name in DL_FRAMEWORKS]


def _cuda_frameworks(snap: Snapshot) -> List[Tuple[Framework, str]]:
    return [(f, c) for f in snap.frameworks if (c := f.cuda)]


def _base(snap: Snapshot, path: str) -> str:
    return str(pathmod(snap).basename(path)).lower()


# -- missing-vc-runtime ----------------------------------------------------------------------
def _imports(snap: Snapshot, names: Set[str]) -> Dict[str, List[str]]:
    """runtime DLL name -> the libraries that import it (from their PE headers)."""
    out: Dict[str, List[str]] = {}
    for lib in snap.libraries:
        if not lib.info or lib.info.get("format") != "pe":
            continue
        for dep in lib.info.get("needed", ()):
            if str(dep).lower() in names:
                out.setdefault(str(dep).lower(), []).append(lib.path)
    return out


def _provided(snap: Snapshot, requester: str, name: str) -> bool:
    """Found by the loader for ``requester``: System32, python.exe's folder, or its own folder."""
    mod = pathmod(snap)
    if any(d.name == name and not d.error for d in _host(snap).vc_runtime):
        return True
    folder = norm(snap, mod.dirname(requester))
    if any(_base(snap, lib.path) == name and norm(snap, mod.dirname(lib.path)) == folder for lib in snap.libraries):
        return True
    return _vendored(snap, requester, name)


def _vendored(snap: Snapshot, requester: str, name: str) -> bool:
    """The requester's own package, or one it requires beside a DLL of its own that imports it,
    ships ``name`` and makes it loaded before its modules need it: scikit-learn preloads
    sklearn\\.libs\\vcomp140.dll and msvcp140.dll by full path (_distributor_init.py); PyQt5-Qt5's Qt5Core.dll pulls
    Qt5\\bin\\msvcp140.dll in beside it, so the plugins Qt opens later find it already loaded,
    also those of PySide6-Addons, which requires PySide6-Essentials (the wheel that ships
    msvcp140.dll beside Qt6Core.dll). How new the copy is stays the minimums' question (below),
    not this one."""
    owner = next((lib.dist for lib in snap.libraries if norm(snap, lib.path) == norm(snap, requester)), None)
    if not owner:
        return False
    if any(lib.dist == owner and _base(snap, lib.path) == name for lib in snap.libraries):
        return True
    required = required_closure(snap, owner)
    for lib in snap.libraries:  # a requirement's copy that its own DLLs beside it import (Qt6Core.dll)
        if lib.dist and canonicalize_name(lib.dist) in required and _base(snap, lib.path) == name:
            folder = norm(snap, pathmod(snap).dirname(lib.path))
            if any(o.dist == lib.dist and norm(snap, pathmod(snap).dirname(o.path)) == folder
                   and name in {str(n).lower() for n in (o.info or {}).get("needed", ())} for o in snap.libraries):
                return True
    return False


def _version_of(snap: Snapshot, dist: str) -> Optional[Version]:
    d = snap.distribution(dist)
    return None if d is None else parsed_version(d.version)


@check("missing-vc-runtime", applies=_windows)
def missing_vc_runtime(snap: Snapshot) -> Iterator[Finding]:
    vc = load_vc_runtime()
    host = _host(snap)
    lacking: Dict[str, List[str]] = {}
    for name, requesters in sorted(_imports(snap, set(vc.dlls)).items()):
        missing = [r for r in requesters if not _provided(snap, r, name)]
        if missing:
            lacking[name] = missing
    if lacking:
        users = sorted({_base(snap, r) for rs in lacking.values() for r in rs})
        shown = ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
        yield finding(
            "missing-vc-runtime",
            f"{', '.join(lacking)} not found (System32 or next to {shown})",
            [*((name, f"needed by {', '.join(_base(snap, r) for r in rs[:3])}") for name, rs in lacking.items()),
             ("System32", host.system32 or "?")],
            fix=f"Install the Microsoft Visual C++ 2015-2022 Redistributable (x64): {vc.redist_url}",
            snapshot=snap,
        )
    sys32 = norm(snap, host.system32)
    system = {d.name: d for d in host.vc_runtime if norm(snap, pathmod(snap).dirname(d.path)) == sys32}
    for need in vc.minimums:
        installed = _version_of(snap, need.dist)
        copy = system.get(need.dll)
        if installed is None or copy is None or not copy.file_version:
            continue
        if installed in need.specifier and version_key(copy.file_version) < version_key(need.version):
            yield finding(
                "missing-vc-runtime",
                f"{need.dll} {copy.file_version} in System32 is older than {need.version}, "
                f"which {need.dist} {installed} needs",
                [("System32 copy", copy.path), ("why", need.why), *(("source", s) for s in need.sources)],
                fix=f"Install the latest Visual C++ 2015-2022 Redistributable (x64): {vc.redist_url}",
                snapshot=snap,
            )


# -- hybrid-graphics ------------------------------------------------------------------------
def adapter_kind(adapter: DisplayAdapter) -> str:
    """"nvidia", "integrated", "discrete" or "ignored" (virtual adapters)."""
    gpu = host_data()["gpu"]
    ident = adapter.device_id.lower()
    desc = adapter.description.lower()
    if any(v in ident for v in gpu["ignored_ids"]) or "microsoft basic" in desc:
        return "ignored"
    if any(v in ident for v in gpu["nvidia_ids"]) or "nvidia" in desc:
        return "nvidia"
    if any(v in ident for v in gpu["integrated_ids"]) and not any(p in desc for p in gpu["discrete_name_patterns"]):
        return "integrated"
    return "discrete"


def preference_for(snap: Snapshot) -> Tuple[Optional[int], str]:
    """The GPU preference that applies to the snapshot's python.exe, and where it was set.

    A venv's Scripts\\python.exe is a launcher that starts the base python.exe, the process
    that really loads the framework, so a preference on either exe counts."""
    from dldoctor.snapshot.windows_host import GLOBAL_GPU_SETTING, gpu_preference

    mod = pathmod(snap)
    exes = {norm(snap, snap.interpreter.executable)}
    if snap.interpreter.base_prefix:
        exes.add(norm(snap, mod.join(snap.interpreter.base_prefix, "python.exe")))
    prefs = _host(snap).gpu_preferences
    for name, data in prefs.items():
        if name != GLOBAL_GPU_SETTING and norm(snap, name) in exes:
            return gpu_preference(data), name
    if GLOBAL_GPU_SETTING in prefs:
        return gpu_preference(prefs[GLOBAL_GPU_SETTING]), GLOBAL_GPU_SETTING
    return None, ""


@check("hybrid-graphics", applies=_windows)
def hybrid_graphics(snap: Snapshot) -> Iterator[Finding]:
    host = _host(snap)
    kinds = [(adapter_kind(a), a) for a in host.adapters]
    nvidia = [a for k, a in kinds if k == "nvidia"]
    integrated = [a for k, a in kinds if k == "integrated"]
    frameworks = _dl_frameworks(snap)
    if not (nvidia and integrated and frameworks):
        return
    high = host_data()["gpu"]["high_performance"]
    pref, where = preference_for(snap)
    if pref == high:
        return
    exe = snap.interpreter.executable
    yield finding(
        "hybrid-graphics",
        f"hybrid graphics ({integrated[0].description} + {nvidia[0].description}) and no "
        f"high-performance GPU preference for {pathmod(snap).basename(exe) or 'python.exe'}",
        [
            ("integrated", integrated[0].description),
            ("discrete", f"{nvidia[0].description} (driver {nvidia[0].driver_version or '?'})"),
            ("GPU preference", f"{where}: GpuPreference={pref}" if where else "not set (Windows decides)"),
            ("frameworks", ", ".join(f"{f.name} {f.version}" for f in frameworks)),
        ],
        fix=(
            f"Settings > System > Display > Graphics: add {exe} (and the base python.exe of the venv) "
            "and choose High performance; this writes GpuPreference=2; under "
            "HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences"
        ),
        snapshot=snap,
    )


# -- pagefile-too-small ---------------------------------------------------------------------
@check("pagefile-too-small", applies=_windows)
def pagefile_too_small(snap: Snapshot) -> Iterator[Finding]:
    cuda = _cuda_frameworks(snap)
    if not cuda:
        return
    host = _host(snap)
    used = ", ".join(f"{f.name} {f.version} (CUDA {c})" for f, c in cuda)
    files = [p for p in host.paging_files if p.path]
    if not files and not host.existing_page_files:
        yield finding(
            "pagefile-too-small",
            f"no paging file, with {used} installed: loading CUDA DLLs in several processes fails with error 1455",
            [("PagingFiles", "(empty)"), ("RAM", f"{host.physical_memory_mib or '?'} MiB")],
            snapshot=snap,
        )
        return
    if not files or any(p.system_managed for p in files):
        return
    total = sum(p.maximum_mib for p in files)
    minimum = host.physical_memory_mib or int(host_data()["pagefile"]["fallback_min_mib"])
    if total < minimum:
        yield finding(
            "pagefile-too-small",
            f"fixed paging file of {total} MiB (< {minimum} MiB) with {used}: "
            "expect error 1455 with DataLoader workers",
            [*(("PagingFiles", f"{p.path} {p.initial_mib} {p.maximum_mib}") for p in files),
             ("RAM", f"{host.physical_memory_mib or '?'} MiB"), ("source", host_data()["pagefile"]["source"])],
            snapshot=snap,
            severity=Severity.WARNING,
        )


# -- gpu-driver-timeout ---------------------------------------------------------------------
@check("gpu-driver-timeout", applies=_windows)
def gpu_driver_timeout(snap: Snapshot) -> Iterator[Finding]:
    cuda = _cuda_frameworks(snap)
    host = _host(snap)
    has_nvidia = snap.host.gpu.driver_present or any(adapter_kind(a) == "nvidia" for a in host.adapters)
    if not cuda or not has_nvidia or host.tdr_level == 0:
        return
    default = int(host_data()["tdr"]["default_delay_s"])
    delay = host.tdr_delay if host.tdr_delay is not None else default
    if delay <= default:
        yield finding(
            "gpu-driver-timeout",
            f"TdrDelay is {delay} s{' (the default)' if host.tdr_delay is None else ''}: "
            "a kernel running longer resets the display driver",
            [("TdrDelay", "unset" if host.tdr_delay is None else str(host.tdr_delay)),
             ("TdrLevel", "unset" if host.tdr_level is None else str(host.tdr_level)),
             ("source", host_data()["tdr"]["source"])],
            snapshot=snap,
            severity=Severity.INFO,
        )


# -- cuda-toolkit-mismatch ------------------------------------------------------------------
def _major_minor(text: str) -> Optional[Tuple[int, ...]]:
    key = version_key(text)
    return key[:2] if len(key) >= 2 else None


def active_toolkit(snap: Snapshot) -> Optional[Tuple[str, str, str]]:
    """(variable, folder, version) of the toolkit extension builds would use."""
    if snap.windows is not None:
        for tk in snap.windows.cuda_toolkits:
            if tk.var.upper() == "CUDA_PATH" and tk.version:
                return tk.var, tk.path, tk.version
    for var in ("CUDA_PATH", "CUDA_HOME"):
        folder = snap.env.get(var, "")
        m = re.search(r"(?:cuda-|[\\/]v)(\d+\.\d+)[\\/]*$", folder)
        if m:
            return var, folder, m.group(1)
    return None


@check("cuda-toolkit-mismatch", applies=lambda s: "" if s.host.os in ("windows", "linux") else "not Windows or Linux")
def cuda_toolkit_mismatch(snap: Snapshot) -> Iterator[Finding]:
    active = active_toolkit(snap)
    if active is None:
        return
    var, folder, version = active
    have = _major_minor(version)
    for fw, cuda in _cuda_frameworks(snap):
        want = _major_minor(cuda)
        if have is None or want is None or have == want:
            continue
        yield finding(
            "cuda-toolkit-mismatch",
            f"{var} is CUDA {version} but {fw.name} {fw.version} was built with CUDA {cuda}",
            [(var, folder), (fw.name, f"{fw.version} (CUDA {cuda})")],
            snapshot=snap,
            severity=Severity.WARNING if have[0] != want[0] else Severity.INFO,
        )
