"""Start the child script in the target interpreter and bring back what it said.

Why this shape:
- Every child runs under dldoctor's supervisor (``dldoctor.supervise``): the imported code's
  parent is the supervisor, so ``os.kill(os.getppid(), ...)`` reaches only that, and comes
  back as a finding; the supervisor keeps a bounded head and tail of stdout and stderr in
  memory (a flood costs no disk), kills the child's whole session and everything it started
  on every exit path (a ``setsid`` grandchild included), and reads the child's libraries
  from outside before a timeout kill.
- The child writes JSON lines to a result file, not to stdout, so a module that prints, a
  crash half-way, or a hang still leaves every event written so far readable.
- The child source is wrapped in a version guard any Python can parse, so an old
  interpreter says which version it is instead of failing to compile 3.8+ code.
- stdin is closed and the environment is rebuilt from an allow-list (plus what the caller
  tests), so the user's shell state does not leak in beyond what affects loading.
- The temporary folder is removed on every path, after the supervisor has killed all
  that could still write there.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from dldoctor.inputs import json_values
from dldoctor.interpreter import version_guard
from dldoctor.supervise import run_supervised

# An event line an old interpreter writes instead of running the 3.8+ child.
CHILD_SOURCE = version_guard(2, '{"event": "unsupported", "python": "%d.%d.%d"}\n') + (
    "exec(compile(" + ascii((Path(__file__).parent / "child.py").read_text(encoding="utf-8"))
    + ", '<dldoctor-probe>', 'exec'))\n")

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
STDERR_HEAD = 2000  # bytes of stderr kept from the start (the first warning is often the cause)
STDERR_TAIL = 6000  # and from the end (where the traceback or faulthandler dump is)
MAX_EVENTS = 16 << 20  # bytes of the result file read back
# JSON values parsed from it: a real probe writes a few thousand (--libs: ~5 per library);
# 16 MB of `{},` would be 5M dicts (~600 MB), and one line may nest deeper than json recurses.
MAX_EVENT_VALUES = 250_000


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
    parent_killed: str = ""  # the child (or what it started) hit its supervisor: "received SIGTERM"


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
        with path.open("rb") as fh:
            raw = fh.read(MAX_EVENTS)
    except OSError:
        return ()
    budget = MAX_EVENT_VALUES
    for line in raw.splitlines():
        budget -= json_values(line)
        if budget < 0:
            break  # what the child wrote past any real probe's size is not parsed
        try:
            obj = json.loads(line.decode("utf-8", errors="replace"))
        except (ValueError, RecursionError):
            continue  # a torn last line after a crash; a line nested deeper than json recurses
        if isinstance(obj, dict) and isinstance(obj.get("event"), str):
            out.append(obj)
    return tuple(out)


def run_child(python: str, mode: str, payload: Mapping[str, Any], timeout: float,
              env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None) -> ChildRun:
    """Run the child script once in ``python``; hangs, crashes and attacks come back as values."""
    tmp = tempfile.mkdtemp(prefix="dldoctor-probe-")
    try:
        result = Path(tmp) / "events.jsonl"
        body = dict(payload)
        body.setdefault("dump_after", max(0.5, timeout * 0.85))
        argv = [python, "-c", CHILD_SOURCE, mode, str(result), json.dumps(body)]
        run = run_supervised(argv, env=child_env() if env is None else env, timeout=timeout, cwd=cwd,
                             head=STDERR_HEAD, tail=STDERR_TAIL, maps=True)
        if run.launch_error:
            return ChildRun((), None, False, "", 0.0, launch_error=run.launch_error)
        return ChildRun(_read_events(result), run.returncode, run.timed_out, run.stderr, run.seconds,
                        run.maps, parent_killed=run.parent_killed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
