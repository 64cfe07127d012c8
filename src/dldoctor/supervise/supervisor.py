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
- writes records to its own stdout (which the patient never holds): ``{"pid": N}`` as
  soon as the command runs, then ``{"result": {...}}``.

Stdlib only, run as ``python -I -S -c SOURCE`` by dldoctor's own interpreter (3.8+), so
spec and records travel as ``marshal`` (same interpreter on both ends), each record behind
a 4-byte length. It costs one interpreter start and nothing else: on POSIX it imports only
built-in modules (fork/exec, ``select.poll``, a SIGCHLD wake-up fd) - ``json``,
``subprocess`` and ``threading`` would add ~40 ms to every probe and every check. Windows
takes the portable path (subprocess and reader threads). ``dldoctor.supervise`` imports the
process listing and killing functions from here for the case where the supervisor itself
was killed.
"""

from __future__ import annotations

import marshal
import os
import signal
import sys
import time

TYPE_CHECKING = False  # typing costs start-up time here; mypy reads the names anyway
if TYPE_CHECKING:
    from typing import IO, Any, Callable, Dict, Iterable, List, Optional, Tuple

MARKER_VAR = "DLDOCTOR_SUPERVISED"
CHUNK = 1 << 16
LINUX = sys.platform.startswith("linux")
HANDLED = ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM")


class Capture:
    """The first ``head`` and last ``tail`` bytes of a stream, and how many bytes it carried."""

    def __init__(self, head: int, tail: int) -> None:
        self.head_size = head
        self.tail_size = tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
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
        skipped = self.total - len(self.head) - len(self.tail)
        middle = f"\n[... {skipped} bytes skipped ...]\n" if skipped > 0 else ""
        return self.head.decode("utf-8", "replace") + middle + self.tail.decode("utf-8", "replace")


def _stat(pid: int) -> Tuple[str, int, int, int]:
    """(state, ppid, pgrp, session) of a live process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", "rb") as fh:
        data = fh.read()
    fields = data[data.rindex(b")") + 2:].split()
    return fields[0].decode("ascii", "replace"), int(fields[1]), int(fields[2]), int(fields[3])


def has_marker(pid: int, marker: str) -> bool:
    """Whether a live process carries a supervised command's marker (Linux)."""
    return _has_marker(pid, (MARKER_VAR + "=" + marker).encode())


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
        import subprocess

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
    """One record on stdout: 4-byte little-endian length, then marshal data."""
    data = marshal.dumps(obj)
    data = len(data).to_bytes(4, "little") + data
    while data:
        try:
            data = data[os.write(1, data):]
        except OSError:
            return


def read_records(data: bytes) -> List[Dict[str, Any]]:
    """The records of ``report`` (a torn last one is dropped)."""
    out = []
    while len(data) >= 4:
        size = int.from_bytes(data[:4], "little")
        if len(data) < 4 + size:
            break
        try:
            obj = marshal.loads(data[4:4 + size])
        except (EOFError, ValueError, TypeError):
            break
        if isinstance(obj, dict):
            out.append(obj)
        data = data[4 + size:]
    return out


def reap() -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except OSError:
            return
        if pid == 0:
            return


def _exitcode(status: int) -> int:
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else status


def spawn(spec: Dict[str, Any], env: Dict[str, str],
          forked: Optional[Callable[[int], None]] = None) -> Tuple[int, int, int]:
    """fork/exec the command in a new session: (pid, stdout fd, stderr fd). Raises OSError
    (errno and message of the failed exec) when it cannot start.

    ``forked(pid)`` runs before the command may start: the child waits on a pipe until it has
    returned, so the supervisor reports the pid before the patient's first instruction (a .pth
    that stops or kills its parent at once would otherwise leave it unreported, its attack read
    as a launch failure)."""
    argv = list(spec["argv"])
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    fail_r, fail_w = os.pipe()  # close-on-exec: EOF means exec succeeded
    go_r, go_w = os.pipe()  # the child execs once the parent has written to it (or died)
    stdin = os.open(spec.get("stdin") or os.devnull, os.O_RDONLY)
    pid = os.fork()
    if pid == 0:  # the child: only async-safe-ish work until exec, then the patient runs
        try:
            os.close(go_w)
            os.read(go_r, 1)
            os.close(go_r)
            os.setsid()
            for name in ("SIGPIPE", "SIGXFSZ"):  # Python ignores them; the command must not
                if hasattr(signal, name):
                    signal.signal(getattr(signal, name), signal.SIG_DFL)
            if spec.get("cwd"):
                os.chdir(spec["cwd"])
            os.dup2(stdin, 0)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            os.execve(argv[0], argv, env)
        except BaseException as exc:
            code = getattr(exc, "errno", None) or 0
            os.write(fail_w, f"{code}:{getattr(exc, 'strerror', None) or exc}".encode("utf-8", "replace"))
        finally:
            os._exit(127)
    os.close(go_r)
    try:
        if forked is not None:
            forked(pid)
    finally:
        os.write(go_w, b"1")
        os.close(go_w)
    for fd in (out_w, err_w, fail_w, stdin):
        os.close(fd)
    failed = b""
    while True:
        chunk = os.read(fail_r, 4096)
        if not chunk:
            break
        failed += chunk
    os.close(fail_r)
    if failed:
        os.waitpid(pid, 0)
        os.close(out_r)
        os.close(err_r)
        code, _, message = failed.decode("utf-8", "replace").partition(":")
        raise OSError(int(code or 0), message)
    return pid, out_r, err_r


def supervise_posix(spec: Dict[str, Any], env: Dict[str, str]) -> None:
    import select

    parent = os.getppid()
    caps = (Capture(int(spec["head"]), int(spec["tail"])), Capture(int(spec["head"]), int(spec["tail"])))
    subreaper = LINUX and become_subreaper()
    began = time.monotonic()
    state: Dict[str, Any] = {"timed_out": False, "orphaned": False, "signal": None, "maps": []}
    spawned: List[int] = []  # the child's pid, once there is one

    def on_signal(signum: int, _frame: object) -> None:
        if state["signal"] is None:
            state["signal"] = signum
        if spawned:
            kill()

    # the handlers come before the child: a patient whose start-up code signals its parent at
    # once (a .pth that sends SIGTERM) must meet them, or the supervisor dies unreported and the
    # patient's attack reads as a launch failure (exec resets them to the defaults in the patient)
    for name in HANDLED:
        signal.signal(getattr(signal, name), on_signal)
    try:
        pid, out_fd, err_fd = spawn(spec, env, lambda child: report({"pid": child}))
    except OSError as exc:
        report({"result": {"launch_error": f"{spec['argv'][0]}: {exc.strerror or exc}"}})
        return
    roots = [pid, os.getpid()] if subreaper else [pid]

    def kill() -> int:
        return kill_tree(roots, pid, None if subreaper else spec["marker"])

    spawned.append(pid)
    if state["signal"] is not None:  # signalled between the spawn and now
        kill()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda _s, _f: None)  # wakes poll() the moment the child ends
    poller = select.poll()
    streams = {out_fd: caps[0], err_fd: caps[1]}
    for fd in (out_fd, err_fd, wake_r):
        poller.register(fd, select.POLLIN)

    def pump(wait_s: float) -> None:
        for fd, _event in poller.poll(max(0, int(wait_s * 1000))):
            if fd == wake_r:
                try:
                    os.read(wake_r, 512)
                except OSError:
                    pass
                continue
            data = os.read(fd, CHUNK)
            if data:
                streams[fd].add(data)
            else:  # end of this stream
                poller.unregister(fd)
                os.close(fd)
                del streams[fd]

    deadline = began + float(spec["timeout"])
    while True:
        # WNOWAIT: the child stays a zombie until the leftovers are killed, so its pid (the
        # session and group id that names them) cannot be reused by another process meanwhile.
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            break
        now = time.monotonic()
        if now >= deadline and not state["timed_out"]:
            state["timed_out"] = True
            if spec.get("maps") and LINUX:
                state["maps"] = read_maps(pid)
            kill()
        elif os.getppid() != parent and not state["orphaned"]:  # dldoctor is gone
            state["orphaned"] = True
            kill()
        pump(min(0.2, max(0.0, deadline - now)) if not state["timed_out"] else 0.05)
    seconds = time.monotonic() - began
    leftovers = kill()  # every exit path: nothing the command started outlives it
    status = os.waitpid(pid, 0)[1]
    reap()
    drain_until = time.monotonic() + 1.0  # what is still in the pipes; escaped holders are not waited for
    while streams and time.monotonic() < drain_until:
        pump(0.05)
    report({"result": {
        "returncode": _exitcode(status), "timed_out": state["timed_out"], "seconds": seconds,
        "stdout": caps[0].text(), "stderr": caps[1].text(), "stdout_bytes": caps[0].total,
        "stderr_bytes": caps[1].total, "maps": state["maps"], "leftovers": leftovers,
        "orphaned": state["orphaned"], "signal": state["signal"],
    }})


def supervise_windows(spec: Dict[str, Any], env: Dict[str, str]) -> None:  # pragma: no cover - Windows only
    """The portable path: subprocess with a new process group, reader threads, a watchdog."""
    import subprocess
    import threading

    caps = (Capture(int(spec["head"]), int(spec["tail"])), Capture(int(spec["head"]), int(spec["tail"])))
    began = time.monotonic()
    try:
        with open(spec.get("stdin") or os.devnull, "rb") as stdin:
            proc = subprocess.Popen(spec["argv"], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=env, cwd=spec.get("cwd"),
                                    creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
    except (OSError, ValueError) as exc:
        report({"result": {"launch_error": f"{spec['argv'][0]}: {getattr(exc, 'strerror', None) or exc}"}})
        return
    report({"pid": proc.pid})
    timed_out = []

    def drain(stream: IO[bytes], cap: Capture) -> None:
        for chunk in iter(lambda: stream.read1(CHUNK), b""):  # type: ignore[attr-defined]
            cap.add(chunk)

    for stream, cap in ((proc.stdout, caps[0]), (proc.stderr, caps[1])):
        threading.Thread(target=drain, args=(stream, cap), daemon=True).start()
    try:
        proc.wait(float(spec["timeout"]))
    except subprocess.TimeoutExpired:
        timed_out.append(True)
    seconds = time.monotonic() - began
    kill_tree([proc.pid], 0)
    returncode = proc.wait()
    report({"result": {
        "returncode": returncode, "timed_out": bool(timed_out), "seconds": seconds,
        "stdout": caps[0].text(), "stderr": caps[1].text(), "stdout_bytes": caps[0].total,
        "stderr_bytes": caps[1].total, "maps": [], "leftovers": 0, "orphaned": False, "signal": None,
    }})


def main() -> None:
    raw = b""
    while True:
        chunk = os.read(0, CHUNK)
        if not chunk:
            break
        raw += chunk
    spec = marshal.loads(raw)
    env = dict(spec["env"])
    env[MARKER_VAR] = spec["marker"]
    try:
        if os.name == "posix":
            supervise_posix(spec, env)
        else:  # pragma: no cover - Windows only
            supervise_windows(spec, env)
    finally:
        os._exit(0)  # nothing to tear down; an escaped process may still hold a pipe


if __name__ == "__main__":
    main()
