"""Run a command of the patient under a supervisor process, and get back what happened.

Every process dldoctor starts in a target interpreter (the collector, each probe child)
runs through :func:`run_supervised`: dldoctor's own interpreter starts
``supervisor.py`` (``-I -S``: no site code, no environment), which starts the command and
watches it (see that module for why and how). dldoctor only talks to the supervisor, over
pipes the patient never holds, so a hostile or broken patient can at most kill the
supervisor; that comes back as :attr:`Outcome.parent_killed`, never as dldoctor's death.
"""

from __future__ import annotations

import marshal
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Optional, Sequence, Tuple

from dldoctor.supervise.supervisor import has_marker, kill_tree, read_records

HEAD = TAIL = 8192  # bytes kept from the start and from the end of each stream
GRACE_S = 15.0  # beyond the command's timeout, for the supervisor's own work


@dataclass(frozen=True)
class Outcome:
    """How one supervised command ended, with bounded captures of its output."""

    returncode: Optional[int] = None
    timed_out: bool = False
    seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    maps: Tuple[str, ...] = ()  # libraries mapped at the timeout kill (Linux)
    leftovers: int = 0  # processes it left behind, killed after it ended
    launch_error: str = ""  # the command could not be started at all
    parent_killed: str = ""  # how the command (or what it started) hit its parent: "received SIGTERM"


@lru_cache(maxsize=1)
def _source() -> str:
    return (Path(__file__).parent / "supervisor.py").read_text(encoding="utf-8")


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run_supervised(argv: Sequence[str], *, env: Mapping[str, str], timeout: float,
                   cwd: Optional[str] = None, stdin_path: Optional[str] = None,
                   head: int = HEAD, tail: int = TAIL, maps: bool = False) -> Outcome:
    """Run ``argv`` under a supervisor; every way it can end comes back as an Outcome.

    ``timeout``: seconds before the command (and all it started) is killed. ``stdin_path``:
    a file to give it as stdin (else stdin is closed). ``head``/``tail``: bytes of stdout and
    of stderr kept from their start and end (the middle is counted, not kept). ``maps``: read the libraries the
    command has mapped just before a timeout kill (Linux)."""
    marker = secrets.token_hex(12)
    spec = marshal.dumps({"argv": [str(a) for a in argv], "env": {str(k): str(v) for k, v in env.items()},
                          "cwd": cwd, "timeout": float(timeout), "stdin": stdin_path, "head": head,
                          "tail": tail, "maps": maps, "marker": marker})
    began = time.perf_counter()
    try:
        sup = subprocess.Popen([sys.executable, "-I", "-S", "-c", _source()], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        return Outcome(launch_error=f"cannot start the supervisor: {exc.strerror or exc}")
    out, err, hung = b"", b"", False
    try:
        out, err = sup.communicate(spec, timeout=timeout + GRACE_S)
    except subprocess.TimeoutExpired:  # the supervisor was stopped (SIGSTOP) or is stuck
        hung = True
        sup.kill()
        out, err = sup.communicate()
    finally:
        if sup.poll() is None:  # interrupted: take the supervisor down with us
            sup.kill()
            sup.wait()
    lines = read_records(out)
    pid = next((int(o["pid"]) for o in lines if isinstance(o.get("pid"), int)), 0)
    result = next((o["result"] for o in lines if isinstance(o.get("result"), dict)), None)
    if result is None:
        # The supervisor died before it could report: the patient killed it (or froze it).
        if pid:
            # The pid names the command's session only while that process is still ours.
            ours = has_marker(pid, marker)
            kill_tree([pid] if ours else [], pid if ours else 0, marker)
        why = ("stopped and did not answer" if hung else
               f"killed by {signal_name(-sup.returncode)}" if (sup.returncode or 0) < 0 else
               f"ended with exit {sup.returncode}: "
               + (err.decode("utf-8", "replace").strip().splitlines() or [""])[-1][:300])
        if not pid:
            return Outcome(launch_error=f"the supervisor was {why}", seconds=time.perf_counter() - began)
        return Outcome(seconds=time.perf_counter() - began, parent_killed=why)
    if result.get("launch_error"):
        return Outcome(launch_error=str(result["launch_error"]))
    rc = result.get("returncode")
    sig = result.get("signal")
    return Outcome(
        returncode=rc if isinstance(rc, int) else None,
        timed_out=bool(result.get("timed_out")),
        seconds=float(result.get("seconds") or 0.0),
        stdout=str(result.get("stdout", "")),
        stderr=str(result.get("stderr", "")),
        maps=tuple(str(m) for m in result.get("maps", []) if isinstance(m, str)),
        leftovers=int(result.get("leftovers") or 0),
        parent_killed=(f"received {signal_name(sig)}" if isinstance(sig, int)
                       and not result.get("orphaned") else ""),
    )

