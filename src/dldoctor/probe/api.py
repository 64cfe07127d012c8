"""run_probes: every probe of one target interpreter, run concurrently, as one ProbeReport.

Frameworks are imported only in children of the target interpreter, never here.
"""

from __future__ import annotations

import math
import os
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from dldoctor.errors import DldoctorError
from dldoctor.interpreter import resolve_python, unsupported
from dldoctor.probe.imports import (
    find_conflicts,
    import_probe_from_run,
    library_key,
    order_candidates,
    order_pairs,
    unsupported_python,
)
from dldoctor.probe.loaded import LIBSTDCXX, read_glibcxx_level, system_libstdcxx
from dldoctor.probe.model import (
    ImportProbe,
    OrtProvider,
    ProbeReport,
    SpawnCheck,
    TorchCuda,
    TorchDevice,
)
from dldoctor.probe.owners import OwnerIndex, build_owner_index
from dldoctor.probe.runner import ChildRun, child_env, run_child
from dldoctor.snapshot.model import Gpu
from dldoctor.snapshot.nvidia import GpuSource, query_driver

DEFAULT_TIMEOUT = 60.0
_PLATFORMS = {"linux": "linux", "win32": "windows", "cygwin": "windows", "darwin": "macos"}


def _platform(sys_platform: str) -> str:
    for prefix, name in _PLATFORMS.items():
        if sys_platform.startswith(prefix):
            return name
    return sys_platform


def _sys_path(runs: Sequence[ChildRun]) -> List[str]:
    for run in runs:
        for ev in run.events:
            if ev.get("event") in ("start", "found") and isinstance(ev.get("sys_path"), list):
                return [p for p in ev["sys_path"] if isinstance(p, str)]
    return []


def _target_platform(runs: Sequence[ChildRun]) -> str:
    for run in runs:
        for ev in run.events:
            if ev.get("event") == "start" and isinstance(ev.get("platform"), str):
                return _platform(ev["platform"])
    return _platform(sys.platform)


def _torch_cuda(run: ChildRun) -> TorchCuda:
    for ev in run.events:
        if ev.get("event") == "gpu":
            devices = []
            for d in ev.get("devices", []):
                cap = d.get("capability")
                devices.append(TorchDevice(int(d.get("index", 0)), str(d.get("name", "")),
                                           (int(cap[0]), int(cap[1])) if isinstance(cap, list)
                                           and len(cap) == 2 else None, str(d.get("kernel", ""))))
            return TorchCuda(str(ev.get("version", "")), ev.get("cuda"), ev.get("hip"),
                             bool(ev.get("is_available")), int(ev.get("device_count") or 0),
                             tuple(str(a) for a in ev.get("arch_list", [])), tuple(devices))
    err = next((ev for ev in run.events if ev.get("event") == "error"), None)
    if err is not None:
        return TorchCuda(error=f"{err.get('type')}: {err.get('message')}"[:500])
    if run.timed_out:
        return TorchCuda(error="the GPU probe hung and was killed")
    return TorchCuda(error=f"the GPU probe ended without a result (exit {run.returncode})")


def _spawn_checks(run: ChildRun) -> Tuple[SpawnCheck, ...]:
    out = [SpawnCheck(str(ev.get("what")), bool(ev.get("ok")), str(ev.get("error") or ""),
                      str(ev.get("traceback") or ""))
           for ev in run.events if ev.get("event") == "spawn"]
    if not out:
        why = "hung and was killed" if run.timed_out else f"ended with exit {run.returncode}"
        out.append(SpawnCheck("pool", False, f"the spawn probe {why}", run.stderr_tail[-2000:]))
    return tuple(out)


def _cxx_levels(probes: Sequence[ImportProbe]) -> Tuple[Tuple[str, Optional[int]], ...]:
    paths = {lib.path for p in probes for lib in p.loaded
             if library_key(lib.path).startswith(LIBSTDCXX)}
    system = system_libstdcxx()
    if paths and system:
        paths.add(system)
    return tuple((p, read_glibcxx_level(p)) for p in sorted(paths))


def _refuse_unsupported(exe: str, runs: Sequence[ChildRun]) -> None:
    """An interpreter too old for the child is bad input (exit 2), not a failed import."""
    for run in runs:
        version = unsupported_python(run)
        if version:
            raise DldoctorError(f"{unsupported(version)}: {exe}")


def _ort_providers(run: ChildRun) -> Tuple[OrtProvider, ...]:
    return tuple(OrtProvider(name=str(ev.get("provider", "")), loaded=bool(ev.get("loaded")),
                             version=str(ev.get("version", "")), log=str(ev.get("log", "")))
                 for ev in run.events if ev.get("event") == "ort")


def run_probes(python: Optional[str] = None, modules: Sequence[str] = (), orders: bool = False,
               timeout: float = DEFAULT_TIMEOUT, *, gpu: bool = True, spawn: bool = False,
               env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None,
               gpu_source: Optional[GpuSource] = None) -> ProbeReport:
    """Probe ``python`` (default: this interpreter) and return what was observed.

    ``modules`` empty: the installed frameworks and troublemakers from probe.toml. Entries
    may be sequences ``"A,B"`` (imported in that order in one child). ``orders``: also
    every pair in both orders. ``env``: extra variables for the children (what is tested).
    """
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
        raise DldoctorError(f"timeout must be a positive, finite number of seconds, not {timeout!r}")
    exe = resolve_python(python)
    environ = child_env(env)
    errors: List[str] = []
    with ThreadPoolExecutor(max_workers=max(2, (os.cpu_count() or 2) + 1)) as pool:
        gpu_future: Optional[Future[Gpu]] = (
            pool.submit(query_driver, gpu_source) if gpu else None)
        mods = [m.strip() for m in modules if m.strip()]
        found_runs: List[ChildRun] = []
        if not mods:
            from dldoctor.conditions.probe import probe_data

            data = probe_data()
            names = [*data.frameworks, *data.troublemakers]
            found = run_child(exe, "find", {"modules": names}, timeout, environ, cwd)
            _refuse_unsupported(exe, [found])
            found_runs.append(found)
            hits = next((ev.get("modules", []) for ev in found.events
                         if ev.get("event") == "found"), None)
            if hits is None:
                errors.append("could not list installed frameworks: "
                              + (found.launch_error or found.stderr_tail.strip()[-300:]))
            mods = order_candidates(hits or [])
        sequences = [tuple(s.strip() for s in m.split(",") if s.strip()) for m in mods]
        singles = list(dict.fromkeys(name for seq in sequences for name in seq))
        pair_list = order_pairs(singles) if orders else []

        def submit(mode: str, payload: Dict[str, Any]) -> Future[ChildRun]:
            return pool.submit(run_child, exe, mode, payload, timeout, environ, cwd)

        from dldoctor.conditions.probe import probe_data as _data

        watch = list(_data().frameworks)
        def owner_index() -> OwnerIndex:
            # Read the RECORDs while the imports run: the index needs only sys.path.
            runs = found_runs or [run_child(exe, "find", {"modules": []}, timeout, environ, cwd)]
            return build_owner_index(_sys_path(runs))

        owners_fut = pool.submit(owner_index) if sequences else None
        import_futs = [submit("import", {"modules": list(seq), "watch": watch})
                       for seq in sequences]
        pair_futs = [submit("import", {"modules": list(p), "watch": watch}) for p in pair_list]
        spawn_fut = submit("spawn", {"dataloader": "torch" in singles}) if spawn else None
        info = gpu_future.result() if gpu_future is not None else Gpu(False, source="none", error="skipped")
        gpu_fut = submit("gpu", {}) if info.driver_present and "torch" in singles else None
        ort_fut = submit("ort", {}) if "onnxruntime" in singles else None
        import_runs = [f.result() for f in import_futs]
        pair_runs = [f.result() for f in pair_futs]
        spawn_run = spawn_fut.result() if spawn_fut is not None else None
        gpu_run = gpu_fut.result() if gpu_fut is not None else None
        ort_run = ort_fut.result() if ort_fut is not None else None

        owners = owners_fut.result() if owners_fut is not None else OwnerIndex()
    all_runs = [*found_runs, *import_runs, *pair_runs]
    _refuse_unsupported(exe, all_runs)
    if not owners.sites and all_runs:  # the find child failed; the import children know
        owners = build_owner_index(_sys_path(all_runs))
    platform = _target_platform(all_runs)
    imports = tuple(import_probe_from_run(seq, run, owners, platform)
                    for seq, run in zip(sequences, import_runs))
    pairs = tuple(import_probe_from_run(p, run, owners, platform)
                  for p, run in zip(pair_list, pair_runs))
    return ProbeReport(
        python=exe, platform=platform, imports=imports, pairs=pairs,
        conflicts=tuple(find_conflicts(pairs)), gpu=info,
        torch_cuda=_torch_cuda(gpu_run) if gpu_run is not None else None,
        spawn=_spawn_checks(spawn_run) if spawn_run is not None else (),
        ort=_ort_providers(ort_run) if ort_run is not None else (),
        owners_natives=tuple(sorted(owners.natives.items())),
        cxx_levels=_cxx_levels([*imports, *pairs]), errors=tuple(errors),
        preload=tuple(environ.get("LD_PRELOAD", "").replace(":", " ").split()) if platform == "linux" else ())
