"""The supervisor between dldoctor and every process it runs in a patient, on its own.

Real processes throughout: the patient is a real interpreter doing what hostile code does
to its parent (SIGSTOP, SIGKILL), and "dldoctor" is a real process killed mid-run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dldoctor.supervise as supervise
from dldoctor.supervise import run_supervised
from dldoctor.supervise.supervisor import Capture, read_records, report


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _wait_gone(pid: int, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _sleeper(pidfile: Path) -> List[str]:
    code = f"import os, time\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n"
    return [sys.executable, "-c", code]


@given(st.lists(st.binary(max_size=300), max_size=20), st.integers(0, 64), st.integers(0, 64))
def test_capture_keeps_exactly_the_head_and_the_tail(chunks: List[bytes], head: int, tail: int) -> None:
    cap = Capture(head, tail)
    for chunk in chunks:
        cap.add(chunk)
    data = b"".join(chunks)
    assert cap.total == len(data)
    assert bytes(cap.head) == data[:head]
    rest = data[head:]
    assert bytes(cap.tail) == (rest[-tail:] if tail else b"")
    assert ("bytes skipped" in cap.text()) == (len(rest) > tail)


@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3), max_size=4),
       st.integers(0, 40))
def test_records_survive_a_torn_stream(records: List[dict], cut: int) -> None:  # type: ignore[type-arg]
    r, w = os.pipe()
    saved = os.dup(1)
    try:
        os.dup2(w, 1)
        for rec in records:
            report(rec)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(w)
    data = os.read(r, 1 << 20)
    os.close(r)
    assert read_records(data) == records
    torn = read_records(data[:max(0, len(data) - cut)])
    assert torn == records[:len(torn)]


def test_dldoctor_killed_mid_run_takes_the_patient_down(tmp_path: Path) -> None:
    """The supervisor notices its parent is gone and kills what it supervises."""
    pidfile = tmp_path / "patient.pid"
    host = subprocess.Popen([sys.executable, "-c",
                             "import os, sys\nfrom dldoctor.supervise import run_supervised\n"
                             f"run_supervised({_sleeper(pidfile)!r}, env=dict(os.environ), timeout=300)\n"])
    try:
        for _ in range(100):
            if pidfile.exists() and pidfile.read_text():
                break
            time.sleep(0.05)
        patient = int(pidfile.read_text())
        assert _alive(patient)
        host.kill()
        host.wait()
        assert _wait_gone(patient), "the patient outlived dldoctor"
    finally:
        if pidfile.exists() and pidfile.read_text() and _alive(int(pidfile.read_text())):
            os.kill(int(pidfile.read_text()), signal.SIGKILL)


def test_a_patient_that_freezes_its_supervisor_is_ended_by_the_grace(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervise, "GRACE_S", 1.0)
    pidfile = tmp_path / "patient.pid"
    code = ("import os, signal, time\n"
            f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
            "os.kill(os.getppid(), signal.SIGSTOP)\ntime.sleep(300)\n")
    out = run_supervised([sys.executable, "-c", code], env=dict(os.environ), timeout=1.0)
    assert out.parent_killed == "stopped and did not answer"
    assert _wait_gone(int(pidfile.read_text()))


def test_exec_failure_is_a_launch_error_not_an_exception(tmp_path: Path) -> None:
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    out = run_supervised([str(script)], env=dict(os.environ), timeout=5)
    assert out.launch_error == f"{script}: Permission denied"


def test_stdin_cwd_and_exit_status_reach_the_command(tmp_path: Path) -> None:
    feed = tmp_path / "in.txt"
    feed.write_text("fed\n")
    code = "import os, sys\nprint(sys.stdin.read().strip(), os.getcwd())\nsys.exit(7)\n"
    out = run_supervised([sys.executable, "-c", code], env=dict(os.environ), timeout=10,
                         stdin_path=str(feed), cwd=str(tmp_path))
    assert out.returncode == 7 and out.stdout == f"fed {tmp_path}\n"
    out = run_supervised([sys.executable, "-c", "import os; os.abort()"], env=dict(os.environ), timeout=10)
    assert out.returncode == -signal.SIGABRT
