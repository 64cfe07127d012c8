"""Probed modules that attack the doctor: it must survive, report, and leave nothing behind.

Each case is a real module imported by a real child interpreter through the real CLI (or
the public API), with TMPDIR pointed at a fresh folder so that "nothing left behind" is
checked on the actual temporary folders dldoctor made.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Iterator, List

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dldoctor.cli._common import seconds
from dldoctor.probe import run_probes
from dldoctor.probe.model import KILLED_PARENT, TIMEOUT

from ..conftest import find_python, run_dldoctor


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return "gone"


def _alive(pid: int) -> bool:
    return _state(pid) not in ("gone", "Z", "X")


def _gone_soon(pid: int) -> bool:
    for _ in range(50):  # the kernel tears a killed process down asynchronously
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


DATA = Path(__file__).parents[1] / "data" / "probe"


def _site(tmp_path: Path, *modules: str, **files: str) -> Dict[str, str]:
    """The environment of a probe whose PYTHONPATH holds copies of ``modules`` (and files
    beside them), with TMPDIR at tmp_path/tmp, which must be empty again afterwards."""
    site, tmp = tmp_path / "site", tmp_path / "tmp"
    site.mkdir(exist_ok=True)
    tmp.mkdir(exist_ok=True)
    for module in modules:
        shutil.copy(DATA / f"{module}.py", site)
    for name, text in files.items():
        (site / name).write_text(text)
    return {"PYTHONPATH": str(site), "TMPDIR": str(tmp)}


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """Where setsid_daemon.py writes the pid it left behind; killed at teardown whatever
    the test's outcome, so a failing test never leaves a daemon on the machine."""
    path = tmp_path / "site" / "setsid_daemon.pid"
    yield path
    if path.exists():
        pid = int(path.read_text() or 0)
        if pid and _alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP"])
def test_a_module_that_kills_its_parent_is_a_finding_not_dldoctors_death(tmp_path, sig):
    tmp = tmp_path / "tmp"
    done = run_dldoctor("probe", "kill_parent", "--no-gpu", "--format", "json", "--timeout", "20",
                        env=_site(tmp_path, "kill_parent", **{"kill_parent.signal": sig}))
    assert done.returncode == 1, done.stderr  # a failed import, reported; not 143 / 137
    doc = json.loads(done.stdout)
    facts = {e["label"]: e["value"] for e in doc["facts"]}
    assert facts["import kill_parent"].startswith("killed its parent process (")
    assert sig in facts["import kill_parent"]
    (finding,) = doc["findings"]
    assert finding["slug"] == "import-failed" and finding["observed"] is True
    assert {"label": "failed module", "value": "kill_parent"} in finding["evidence"]
    assert list(tmp.iterdir()) == []  # the probe's temporary folder is gone


def test_killed_parent_ends_the_probe_at_once_and_kills_the_module(tmp_path):
    report = run_probes(None, ["kill_parent"], timeout=20, env=_site(tmp_path, "kill_parent"), gpu=False)
    (probe,) = report.imports
    assert probe.status == KILLED_PARENT and probe.failed_module == "kill_parent"
    assert probe.seconds < 20  # not left to run into the timeout (the module sleeps 30 s)
    assert not [p for p in _pids_running("kill_parent")]


def _pids_running(needle: str) -> List[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and _alive(int(name)):
            try:
                cmd = Path(f"/proc/{name}/cmdline").read_bytes()
                env = Path(f"/proc/{name}/environ").read_bytes()
            except OSError:
                continue
            if needle.encode() in cmd and b"DLDOCTOR_SUPERVISED=" in env:
                out.append(int(name))
    return out


def test_stderr_flood_is_bounded_in_memory_and_costs_no_disk(tmp_path):
    """Before: 3.7 GB of temporary files in 6 s. Now the temporary folder stays tiny while
    the module floods, and only a head and a tail of stderr come back."""
    tmp = tmp_path / "tmp"
    env = {**os.environ, **_site(tmp_path, "flood_stderr")}
    proc = subprocess.Popen([sys.executable, "-m", "dldoctor", "probe", "flood_stderr", "--no-gpu",
                             "--format", "json", "--timeout", "4"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    biggest = 0
    while proc.poll() is None:
        biggest = max(biggest, sum(f.stat().st_size for f in tmp.rglob("*") if f.is_file()))
        time.sleep(0.05)
    out, err = proc.communicate()
    assert proc.returncode == 1, err
    assert biggest < 1 << 20, f"{biggest} bytes of temporary files"
    (finding,) = json.loads(out)["findings"]
    assert "hung (killed after" in finding["message"]
    assert list(tmp.iterdir()) == []


def test_stderr_flood_keeps_the_first_and_the_last_bytes(tmp_path):
    report = run_probes(None, ["flood_stderr"], timeout=3, env=_site(tmp_path, "flood_stderr"), gpu=False)
    (probe,) = report.imports
    assert probe.status == TIMEOUT
    kept = probe.stderr_tail
    assert kept.startswith("first line of the flood\n")
    assert "bytes skipped ...]" in kept and len(kept) < 10_000


def test_setsid_daemon_with_an_empty_environment_does_not_survive_the_probe(tmp_path, pidfile):
    tmp = tmp_path / "tmp"
    done = run_dldoctor("probe", "setsid_daemon", "--no-gpu", "--timeout", "20",
                        env=_site(tmp_path, "setsid_daemon"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "import setsid_daemon: ok in " in done.stdout
    daemon = int(pidfile.read_text())
    assert _gone_soon(daemon), f"pid {daemon} ({_state(daemon)}) outlived the probe"
    assert list(tmp.iterdir()) == []


def test_timed_out_probe_kills_the_daemon_too(tmp_path, pidfile):
    """A hang after the daemon started: the timeout path cleans up as the normal path does."""
    env = _site(tmp_path, "setsid_daemon", "hang_forever")
    report = run_probes(None, ["setsid_daemon,hang_forever"], timeout=3, env=env, gpu=False)
    assert report.imports[0].status == TIMEOUT
    assert _gone_soon(int(pidfile.read_text()))


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e999", "0", "-0", "-1", "-0.5", "abc", ""])
def test_timeouts_that_would_hang_or_end_at_once_are_refused_in_one_line(value):
    for args in (("probe", "json", "--no-gpu", "--timeout", value), ("check", "--probe-timeout", value)):
        done = run_dldoctor(*args)
        assert done.returncode == 2, (args, done.stdout)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dldoctor: argument --"), done.stderr
        assert done.stdout == ""


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_seconds_accepts_exactly_the_finite_positive_numbers(value):
    import argparse
    import math

    try:
        got = seconds(repr(value))
    except argparse.ArgumentTypeError:
        assert not (math.isfinite(value) and value > 0)
    else:
        assert math.isfinite(value) and value > 0 and got == value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 0.0, -3.0])
def test_the_api_refuses_those_timeouts_too(value):
    from dldoctor.errors import DldoctorError

    with pytest.raises(DldoctorError, match="positive, finite"):
        run_probes(None, ["json"], timeout=value, gpu=False)


@pytest.mark.parametrize("module", ["ext_abort", "hang_forever", "no_such_module_xyz", "json"])
def test_every_ending_removes_the_temporary_folder(probe_site, tmp_path, module):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    done = run_dldoctor("probe", module, "--no-gpu", "--timeout", "3", env={**probe_site.env, "TMPDIR": str(tmp)})
    assert done.returncode in (0, 1), done.stderr
    assert list(tmp.iterdir()) == []


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.7"])
def test_old_interpreters_are_unsupported_not_an_import_failure(version):
    python = find_python(version)
    for args in (("probe", "json", "--no-gpu"), ("probe", "--no-gpu")):
        done = run_dldoctor(*args, "--python", python)
        assert done.returncode == 2, done.stdout
        assert done.stderr.startswith(
            f"dldoctor: unsupported interpreter (Python {version}; dldoctor needs 3.8+)"), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""


def test_an_events_file_nested_or_swollen_past_any_probe_is_not_parsed(tmp_path: Path) -> None:
    """The child writes the events file, so the target can write anything there: a line nested
    deeper than json recurses ended dldoctor in a RecursionError traceback; millions of values
    on one line are not parsed (a real probe writes a few thousand)."""
    writer = tmp_path / "write_events.py"
    writer.write_text(
        "import sys\n"
        "with open(sys.argv[1], 'w') as f:\n"
        "    f.write('{\"event\": ' * 100000 + '\\n')\n"
        "    f.write('[' + '{},' * 3000000 + '{}]\\n')\n"
    )
    fake = tmp_path / "python"  # dldoctor runs PY -c SOURCE MODE EVENTS_FILE PAYLOAD
    fake.write_text(f'#!/bin/sh\n[ -n "$4" ] && "{sys.executable}" "{writer}" "$4"\nexit 0\n')
    fake.chmod(0o755)
    done = run_dldoctor("probe", "--no-gpu", "--format", "json", "--python", str(fake), "json")
    assert "Traceback" not in done.stderr and done.returncode in (0, 1, 2), done.stderr
