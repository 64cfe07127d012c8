"""Start the child script in the target interpreter and bring back what it said.

Why this shape:
- The child writes JSON lines to a result file, not to stdout, so a module that prints, a
  crash half-way, or a hang still leaves every event written so far readable.
- stdout/stderr go to temporary files, never pipes: a grandchild that keeps a pipe open (a
  spawn worker, a daemon a framework starts) cannot block the parent, and only a bounded
  tail is read back.
- The child leads its own process group (session on POSIX, process group on Windows) so a
  hang is ended by killing the group: spawn workers and helpers die with it.
- stdin is closed and the environment is rebuilt from an allow-list (plus what the caller
  tests), so the user's shell state does not leak in beyond what affects loading.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

CHILD_SOURCE = (Path(__file__).parent / "child.py").read_text(encoding="utf-8")

# Variables that change what loads or how: kept from the caller's environment. Everything
# else (tokens, shell clutter) stays out of the patient.
_KEEP_PREFIXES = ("CUDA", "CUDNN", "NVIDIA_", "CONDA", "OMP_", "KMP_", "MKL_", "LD_", "DYLD_",
                  "PYTHON", "VIRTUAL_ENV", "TORCH", "PADDLE", "TF_", "ORT_", "XLA_", "JAX_",
                  "HIP_", "ROCM", "LC_", "QT_")
_KEEP = {"PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC",
         "TEMP", "TMP", "TMPDIR", "LANG", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA",
         "PROGRAMFILES", "PROGRAMFILES(X86)", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE"}
# Never forwarded: they would change the child's behaviour in ways the user did not ask for.
_DROP = {"PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT", "PYTHONWARNINGS"}
STDERR_TAIL = 6000


@dataclass(frozen=True)
class ChildRun:
    """What one child process left behind: its events and how it ended."""

    events: Tuple[Dict[str, Any], ...]
    returncode: Optional[int]
    timed_out: bool
    stderr_tail: str
    seconds: float
    maps_at_kill: Tuple[str, ...] = ()  # loaded libraries read from outside before a kill
    launch_error: str = ""  # the interpreter could not be started at all


def child_env(extra: Optional[Mapping[str, str]] = None,
              base: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The environment a probe child gets: the allow-listed part of ``base`` plus ``extra``."""
    source = os.environ if base is None else base
    env: Dict[str, str] = {}
    for key, value in source.items():
        upper = key.upper()
        if upper in _DROP:
            continue
        if upper in _KEEP or upper.startswith(_KEEP_PREFIXES):
            env[key] = value
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # look, don't touch the patient's files
    env["PYTHONFAULTHANDLER"] = "1"  # a crash leaves a Python stack on stderr
    env["PYTHONIOENCODING"] = "utf-8"
    if extra:
        env.update(extra)
    return env


def _read_events(path: Path) -> Tuple[Dict[str, Any], ...]:
    out: List[Dict[str, Any]] = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    for line in text.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # a torn last line after a crash
        if isinstance(obj, dict) and isinstance(obj.get("event"), str):
            out.append(obj)
    return tuple(out)


def _tail(path: Path, limit: int = STDERR_TAIL) -> str:
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - limit))
            return fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def read_maps(pid: int) -> Tuple[str, ...]:
    """Shared objects of a live process, read from outside (Linux only; else empty)."""
    seen: List[str] = []
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                parts = line.split(None, 5)
                if len(parts) == 6:
                    path = parts[5].strip()
                    name = path.rsplit("/", 1)[-1]
                    if path.startswith("/") and ".so" in name and path not in seen:
                        seen.append(path)
    except OSError:
        return ()
    return tuple(seen)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()


def run_child(python: str, mode: str, payload: Mapping[str, Any], timeout: float,
              env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None) -> ChildRun:
    """Run the child script once in ``python``; hangs and crashes come back as values."""
    with tempfile.TemporaryDirectory(prefix="dldoctor-probe-") as tmp:
        result = Path(tmp) / "events.jsonl"
        err = Path(tmp) / "stderr.txt"
        body = dict(payload)
        body.setdefault("dump_after", max(0.5, timeout * 0.85))
        argv = [python, "-c", CHILD_SOURCE, mode, str(result), json.dumps(body)]
        kwargs: Dict[str, Any] = {}
        if sys.platform == "win32":  # pragma: no cover
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        else:
            kwargs["start_new_session"] = True
        began = time.perf_counter()
        with err.open("wb") as err_fh:
            try:
                proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=err_fh, env=dict(env) if env is not None
                                        else child_env(), cwd=cwd, **kwargs)
            except OSError as exc:
                return ChildRun((), None, False, "", 0.0, launch_error=f"{python}: {exc}")
            timed_out = False
            maps: Tuple[str, ...] = ()
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                maps = read_maps(proc.pid)
                _kill_group(proc)
                proc.wait()
            else:
                if sys.platform != "win32":
                    # The child is done; workers it left behind must not outlive the probe.
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except OSError:
                        pass
        seconds = time.perf_counter() - began
        return ChildRun(_read_events(result), proc.returncode, timed_out, _tail(err), seconds,
                        maps)

