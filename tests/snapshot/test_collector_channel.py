"""The collector's channel: what site code prints, holds open or kills cannot fake, stall or
end a check; what comes back is checked against the whole snapshot schema.

Real venvs with real ``.pth`` files (site runs them in every interpreter start, before the
collector), real pyenv interpreters too old for the collector, and fake interpreters (small
executable scripts) for answers no real Python gives.
"""

from __future__ import annotations

import ast
import copy
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dldoctor.errors import DldoctorError
from dldoctor.render import renderer
from dldoctor.report import build_report
from dldoctor.snapshot import collect
from dldoctor.snapshot.model import Snapshot, from_jsonable

from ..conftest import ROOT, find_python, make_venv, run_dldoctor, site_packages, venv_python


def one_line(done: subprocess.CompletedProcess, code: int = 2) -> str:  # type: ignore[type-arg]
    assert done.returncode == code, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.fixture
def pth_venv(tmp_path: Path) -> Path:
    return make_venv(tmp_path / "venv")


def _pth(venv: Path, name: str, code: str) -> None:
    """A module in the venv's site-packages, imported by a .pth at every start."""
    site = site_packages(venv)
    (site / f"{name}.py").write_text(code)
    (site / f"{name}.pth").write_text(f"import {name}\n")


def test_pth_that_prints_to_stdout_does_not_fake_the_facts(pth_venv: Path) -> None:
    _pth(pth_venv, "chatty", "import sys\nprint('hello from site')\nprint('{\"host\": 5}')\n"
                             "sys.stderr.write('and stderr\\n')\n")
    done = run_dldoctor("check", "--no-probe", "--format", "json", "--python", str(venv_python(pth_venv)))
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["errors"] == [] and report["facts"][0]["value"].startswith("cpython ")


DAEMON = '''
import os, sys, time
pidfile = os.environ.get("DLDOCTOR_TEST_PIDFILE")
if pidfile and os.fork() == 0:  # the .pth daemonizes: double fork, new session, stdout held
    os.setsid()
    if os.fork() == 0:
        with open(pidfile, "w") as fh:
            fh.write(str(os.getpid()))
        sys.stdout.write("daemon keeps stdout and stderr open\\n")
        sys.stdout.flush()
        time.sleep(600)
    os._exit(0)
'''


@pytest.fixture
def daemon_pidfile(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "daemon.pid"
    yield path
    if path.exists() and path.read_text().strip():  # never leave it running, pass or fail
        pid = int(path.read_text())
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_pth_that_daemonizes_neither_stalls_the_check_nor_outlives_it(pth_venv: Path, daemon_pidfile: Path) -> None:
    """Before: the daemon held the collector's stdout pipe and check failed after 120 s."""
    _pth(pth_venv, "daemonize", DAEMON)
    env = {**os.environ, "DLDOCTOR_TEST_PIDFILE": str(daemon_pidfile)}
    done = subprocess.run([sys.executable, "-m", "dldoctor", "check", "--no-probe", "--format", "json",
                           "--python", str(venv_python(pth_venv))], env=env, capture_output=True, text=True,
                          timeout=60)  # a hang guard, not a measurement (bench/ measures)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["errors"] == []
    for _ in range(50):
        if daemon_pidfile.exists() and daemon_pidfile.read_text().strip():
            break
        time.sleep(0.1)
    pid = int(daemon_pidfile.read_text())
    for _ in range(50):
        if not _alive(pid):
            break
        time.sleep(0.1)
    assert not _alive(pid), "the daemon a .pth started outlived the collector"


def test_pth_that_kills_its_parent_is_one_line_not_dldoctors_death(pth_venv: Path) -> None:
    _pth(pth_venv, "assassin", "import os, signal\nos.kill(os.getppid(), signal.SIGTERM)\n")
    line = one_line(run_dldoctor("check", "--no-probe", "--python", str(venv_python(pth_venv))))
    assert "killed the process that ran it (received SIGTERM)" in line


def _fake(tmp_path: Path, name: str, body: str) -> str:
    """A fake interpreter. dldoctor runs ``PY -c BOOT FACTS_FILE CONFIG``: $3 is the channel."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def _real_facts() -> Dict[str, Any]:
    return collect.run_collector(sys.executable)


JUNK = {
    "host-not-object": '{"host": 5}',
    "empty-object": "{}",
    "list": "[1, 2]",
    "null": "null",
    "not-json": "garbage{",
    "truncated": "@TRUNCATED@",
    "wrong-collector-version": "@VERSION@",
    "bool-as-bits": "@BITS@",
    "string-version-info": "@VERSION_INFO@",
    "distribution-without-name": "@NO_NAME@",
    "env-value-not-string": "@ENV@",
}


def _junk(kind: str) -> str:
    raw = JUNK[kind]
    if not raw.startswith("@"):
        return raw
    facts = _real_facts()
    if kind == "truncated":
        return json.dumps(facts)[:500]
    if kind == "wrong-collector-version":
        facts["collector_version"] = True  # == 1 in Python, but not the integer 1
    elif kind == "bool-as-bits":
        facts["interpreter"]["bits"] = True
    elif kind == "string-version-info":
        facts["interpreter"]["version_info"] = "3.11.7"
    elif kind == "distribution-without-name":
        facts["distributions"] = [{"version": "1.0", "location": "/x"}]
    elif kind == "env-value-not-string":
        facts["env"] = {"PATH": ["/bin"]}
    return json.dumps(facts)


@pytest.mark.parametrize("kind", sorted(JUNK))
def test_fake_interpreter_writing_junk_to_the_channel_is_one_line(tmp_path: Path, kind: str) -> None:
    facts = tmp_path / "answer.json"
    facts.write_text(_junk(kind))
    # Only the collector's call has an existing channel file at $3 (a probe passes its mode there).
    fake = _fake(tmp_path, "python", f'[ -f "$3" ] && cat "{facts}" > "$3"')
    for args in (("check", "--no-probe"), ("check",), ("snapshot",)):
        line = one_line(run_dldoctor(*args, "--python", fake, cwd=tmp_path))
        assert line.startswith(f"dldoctor: {fake}: malformed collector output ("), line


# The target writes the channel: its nesting and its number of values are as hostile as its
# size (json.loads recursed out on the first; 60 MB of `{},` took 1.5 GB before it was refused).
BOUNDED = {
    "nested-deeper-than-the-parser": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "more-values-than-a-snapshot": ('{"host": [' + "{}," * 1_100_000 + "{}]}", "JSON values"),
}


@pytest.mark.parametrize("kind", sorted(BOUNDED))
def test_channel_nesting_and_value_count_are_bounded(tmp_path: Path, kind: str) -> None:
    text, why = BOUNDED[kind]
    facts = tmp_path / "answer.json"
    facts.write_text(text)
    fake = _fake(tmp_path, "python", f'[ -f "$3" ] && cat "{facts}" > "$3"')
    for args in (("check", "--no-probe"), ("snapshot",)):
        line = one_line(run_dldoctor(*args, "--python", fake, cwd=tmp_path))
        assert line.startswith(f"dldoctor: {fake}: malformed collector output (") and why in line, line


@pytest.mark.parametrize("answer", ['{"host": 5}', "{}", "not json"])
def test_fake_interpreter_answering_on_stdout_is_not_a_python(tmp_path: Path, answer: str) -> None:
    """What the old channel took as facts (or crashed on) is now only noise on stdout."""
    fake = _fake(tmp_path, "python", f"cat >/dev/null; echo '{answer}'")
    line = one_line(run_dldoctor("check", "--no-probe", "--python", fake))
    assert "is not a Python 3.8+ interpreter" in line


def test_fake_interpreter_that_hangs_up_and_exits_nonzero(tmp_path: Path) -> None:
    fake = _fake(tmp_path, "python", "echo 'fatal: cannot start' >&2; exit 3")
    line = one_line(run_dldoctor("check", "--no-probe", "--python", fake))
    assert line.endswith("could not run the collector: fatal: cannot start")


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.7"])
def test_old_interpreters_are_unsupported_in_check_and_snapshot(version: str) -> None:
    python = find_python(version)
    for args in (("check", "--no-probe"), ("check",), ("snapshot",)):
        line = one_line(run_dldoctor(*args, "--python", python))
        assert line.startswith(f"dldoctor: unsupported interpreter (Python {version}; dldoctor needs 3.8+)")


def test_old_venv_is_unsupported_too(tmp_path: Path) -> None:
    venv = tmp_path / "old"
    subprocess.run([find_python("3.7"), "-m", "venv", "--without-pip", str(venv)], check=True)
    line = one_line(run_dldoctor("check", "--python", str(venv)))
    assert "unsupported interpreter (Python 3.7; dldoctor needs 3.8+)" in line


def test_collector_version_is_the_one_collect_expects() -> None:
    tree = ast.parse((ROOT / "src/dldoctor/snapshot/collector.py").read_text())
    values = [n.value.value for n in tree.body if isinstance(n, ast.Assign)  # type: ignore[attr-defined]
              and any(getattr(t, "id", "") == "COLLECTOR_VERSION" for t in n.targets)]
    assert values == [collect.COLLECTOR_VERSION]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
                    max_leaves=8)


def _paths(value: Any, prefix: List[Any]) -> Iterator[List[Any]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, [*prefix, k])
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from _paths(v, [*prefix, i])


@pytest.fixture(scope="module")
def real_facts() -> Dict[str, Any]:
    return _real_facts()


# No example database: the facts are collected live, so an example saved on one run (a path
# into this machine's facts) need not exist on the next, which hypothesis reports as flaky.
@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_corruption_of_real_facts_is_caught_or_harmless(real_facts: Dict[str, Any], data: Any) -> None:
    """Replace any node of real collector facts with any JSON value: either the schema check
    names the problem, or the result builds a Snapshot that checks and renderers judge.
    Never anything else (a traceback is what a user would have seen)."""
    facts = copy.deepcopy(real_facts)
    paths = [p for p in _paths(facts, []) if p]
    path = data.draw(st.sampled_from(paths))
    node = facts
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = data.draw(JSON)
    problem = collect.schema_problem(facts)
    if problem is None:  # it fits: the checks and the renderers must take it too
        snap = from_jsonable(Snapshot, collect._snapshot_data(facts))
        for fmt in ("text", "json", "markdown"):
            assert renderer(fmt)(build_report(snap))
    else:
        assert isinstance(problem, str) and "\n" not in problem


@given(JSON)
def test_any_json_document_is_judged_without_raising(value: Any) -> None:
    assert collect.schema_problem(value) is not None or isinstance(value, dict)


def test_channel_facts_of_a_real_interpreter_pass_the_schema(real_facts: Dict[str, Any], tmp_path: Path) -> None:
    assert collect.schema_problem(real_facts) is None
    channel = tmp_path / "facts.json"
    channel.write_text(json.dumps({**real_facts, "env": 5}))
    with pytest.raises(DldoctorError, match="malformed collector output"):
        collect._facts("py", collect.Outcome(returncode=0), channel)
