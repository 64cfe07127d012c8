"""The supervisor: a small process between dldoctor and every process it runs in a patient.

Why it exists: code that runs in the target interpreter (a probed module, a ``.pth`` file
the collector's interpreter executes at start-up) may do anything its author wrote:
``os.kill(os.getppid(), SIGTERM)``, flood stderr, start a ``setsid`` daemon that holds the
pipes open. With this process in between, the patient's parent is the supervisor, so the
worst it can do is kill the supervisor, which dldoctor sees and reports; dldoctor itself
never dies with the patient.

What it does, for one supervised command:
- starts it in a new session (POSIX) or process group (Windows), stdin from a file or
  closed, and a marker variable in its environment that every descendant inherits;
- drains its stdout and stderr into memory, keeping only a bounded head and tail of each
  (a flood costs CPU, never disk or memory);
- waits for the process itself (not for end-of-file: a grandchild may hold the pipes),
  kills it at the deadline, and stops at once if dldoctor goes away;
- on every exit path kills whatever the command left behind: its session, its process
  group, its descendants (the supervisor is a child subreaper on Linux, so orphans come
  back to it), and, when asked, every process carrying the marker;
- writes JSON lines to its own stdout (which the patient never holds): ``{"pid": N}`` as
  soon as the command runs, then ``{"result": {...}}``.

Stdlib only, run as ``python -I -S -c SOURCE`` by dldoctor's own interpreter (3.8+); the
spec comes as one JSON document on stdin. ``dldoctor.supervise`` imports the process
listing and killing functions from here for the case where the supervisor itself was
killed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

TYPE_CHECKING = False  # typing costs start-up time here; mypy reads the names anyway
if TYPE_CHECKING:
    from typing import IO, Any, Dict, Iterable, List, Optional, Tuple

MARKER_VAR = "DLDOCTOR_SUPERVISED"
CHUNK = 1 << 16
LINUX = sys.platform.startswith("linux")


class Capture:
    """The first ``head`` and last ``tail`` bytes of a stream, and how many bytes it carried."""

    def __init__(self, head: int, tail: int) -> None:
        self.head_size = head
        self.tail_size = tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.lock = threading.Lock()

    def add(self, data: bytes) -> None:
        with self.lock:
            self.total += len(data)
            room = self.head_size - len(self.head)
            if room > 0:
                self.head += data[:room]
                data = data[room:]
            if data and self.tail_size:
                self.tail += data[-self.tail_size:]
                extra = len(self.tail) - self.tail_size
                if extra > 0:
                    del self.tail[:extra]

    def text(self) -> str:
        with self.lock:
            skipped = self.total - len(self.head) - len(self.tail)
            middle = f"\n[... {skipped} bytes skipped ...]\n" if skipped > 0 else ""
            return self.head.decode("utf-8", "replace") + middle + self.tail.decode("utf-8", "replace")


def drain(stream: IO[bytes], capture: Capture) -> None:
    fd = stream.fileno()
    while True:
        try:
            data = os.read(fd, CHUNK)
        except OSError:
            return
        if not data:
            return
        capture.add(data)


def _stat(pid: int) -> Tuple[str, int, int, int]:
    """(state, ppid, pgrp, session) of a live process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", "rb") as fh:
        data = fh.read()
    fields = data[data.rindex(b")") + 2:].split()
    return fields[0].decode("ascii", "replace"), int(fields[1]), int(fields[2]), int(fields[3])


def _has_marker(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return needle in fh.read(1 << 20).split(b"\0")
    except OSError:
        return False


def members(roots: Iterable[int], sid: int, marker: Optional[str] = None) -> List[int]:
    """Live processes that belong to a supervised command (Linux): its session and process
    group ``sid``, every descendant of ``roots``, and with ``marker`` every process whose
    environment carries it (found even after its parent died and it was re-parented)."""
    table: Dict[int, Tuple[str, int, int, int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                table[int(name)] = _stat(int(name))
            except (OSError, ValueError, IndexError):
                continue
    children: Dict[int, List[int]] = {}
    for pid, (_state, ppid, _pgrp, _sid) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        for kid in children.get(stack.pop(), ()):
            if kid not in found:
                found.add(kid)
                stack.append(kid)
    found.update(r for r in roots if r in table)
    for pid, (_state, _ppid, pgrp, session) in table.items():
        if sid and sid in (pgrp, session):
            found.add(pid)
    if marker:
        needle = (MARKER_VAR + "=" + marker).encode()
        uid = os.getuid()
        for pid in table:
            if pid in found:
                continue
            try:
                if os.stat(f"/proc/{pid}").st_uid != uid:
                    continue
            except OSError:
                continue
            if _has_marker(pid, needle):
                found.add(pid)
    found.difference_update({0, 1, os.getpid(), os.getppid()})
    return sorted(p for p in found if table.get(p, ("Z",))[0] not in ("Z", "X", "x"))


def kill_tree(roots: List[int], sid: int, marker: Optional[str] = None, rounds: int = 40) -> int:
    """Kill everything a supervised command left behind; returns how many were killed.

    Each round freezes what it finds (SIGSTOP: no more forks) and then kills it, until a
    round finds nothing; elsewhere than Linux only the session's group can be named."""
    if os.name != "posix":  # pragma: no cover - exercised on Windows only
        for pid in roots:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return 0
    killed = 0
    if sid:
        try:
            os.killpg(sid, signal.SIGKILL)
        except OSError:
            pass
    if not LINUX:  # pragma: no cover - macOS: the session's group is what can be named
        return killed
    for _ in range(rounds):
        pids = members(roots, sid, marker)
        if not pids:
            break
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        killed += len(pids)
        time.sleep(0.005)
    return killed


def read_maps(pid: int) -> List[str]:
    """Shared objects mapped into a live process, read from outside (Linux; else empty)."""
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
        return []
    return seen


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to us, not to init (Linux >= 3.4)."""
    try:
        import ctypes

        done: int = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        return done == 0
    except Exception:
        return False


def report(obj: Dict[str, Any]) -> None:
    data = (json.dumps(obj) + "\n").encode("utf-8")
    while data:
        try:
            data = data[os.write(1, data):]
        except OSError:
            return


def reap() -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except OSError:
            return
        if pid == 0:
            return


def _start(spec: Dict[str, Any], env: Dict[str, str], kwargs: Dict[str, Any]) -> subprocess.Popen[bytes]:
    if not spec.get("stdin"):
        return subprocess.Popen(spec["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, cwd=spec.get("cwd"), **kwargs)
    with open(spec["stdin"], "rb") as stdin:
        return subprocess.Popen(spec["argv"], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=spec.get("cwd"), **kwargs)


def supervise(spec: Dict[str, Any]) -> None:
    parent = os.getppid()
    marker = spec["marker"]
    env = dict(spec["env"])
    env[MARKER_VAR] = marker
    timeout = float(spec["timeout"])
    out, err = (Capture(int(spec["head"]), int(spec["tail"])) for _ in range(2))
    subreaper = LINUX and become_subreaper()
    began = time.monotonic()
    kwargs: Dict[str, Any] = {}
    if os.name == "posix":
        kwargs["start_new_session"] = True
    else:  # pragma: no cover - Windows
        kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    try:
        proc = _start(spec, env, kwargs)
    except (OSError, ValueError) as exc:
        report({"result": {"launch_error": f"{spec['argv'][0]}: {getattr(exc, 'strerror', None) or exc}"}})
        return
    report({"pid": proc.pid})
    state: Dict[str, Any] = {"timed_out": False, "orphaned": False, "signal": None, "maps": []}
    roots = [proc.pid, os.getpid()] if subreaper else [proc.pid]

    def kill() -> int:
        return kill_tree(roots, proc.pid, None if subreaper else marker)

    def on_signal(signum: int, _frame: object) -> None:
        if state["signal"] is None:
            state["signal"] = signum
        kill()

    for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), on_signal)

    readers = [threading.Thread(target=drain, args=(proc.stdout, out), daemon=True),
               threading.Thread(target=drain, args=(proc.stderr, err), daemon=True)]
    for t in readers:
        t.start()
    stop = threading.Event()

    def watchdog() -> None:
        deadline = began + timeout
        while not stop.wait(max(0.0, min(0.2, deadline - time.monotonic()))):
            if os.getppid() != parent:  # dldoctor is gone: nobody will read the result
                state["orphaned"] = True
                kill()
                return
            if time.monotonic() >= deadline:
                state["timed_out"] = True
                if spec.get("maps") and LINUX:
                    state["maps"] = read_maps(proc.pid)
                kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()
    returncode = proc.wait()
    stop.set()
    seconds = time.monotonic() - began
    leftovers = kill()  # every exit path: nothing the command started outlives it
    reap()
    for t in readers:
        t.join(1.0)
    report({"result": {
        "returncode": returncode, "timed_out": state["timed_out"], "seconds": seconds,
        "stdout": out.text(), "stderr": err.text(), "stdout_bytes": out.total, "stderr_bytes": err.total,
        "maps": state["maps"], "leftovers": leftovers, "orphaned": state["orphaned"],
        "signal": state["signal"],
    }})


def main() -> None:
    spec = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    try:
        supervise(spec)
    finally:
        sys.stderr.flush()
        os._exit(0)  # reader threads may still block on pipes an escaped process holds


if __name__ == "__main__":
    main()
