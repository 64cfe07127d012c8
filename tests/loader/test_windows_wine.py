"""The Windows model against Wine's real loader: every scenario of tests/data/wine.

One wine run executes every scenario (see scenarios.OPS); the model replays the same
operations on a WindowsProcess and must predict every load's error code and every module's
binding. The one deliberate difference: a DllMain returning FALSE (1114) is only known at
run time, so the model predicts success there and says so.
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import scenarios

from dldoctor.binary import read_binary
from dldoctor.loader.graph import HostFileSystem
from dldoctor.loader.windows import (
    ERROR_DLL_INIT_FAILED,
    RUNTIME_ONLY_NOTE,
    WindowsConfig,
    WindowsProcess,
)


def to_wine(path: Path) -> str:
    return "Z:" + str(path).replace("/", "\\")


def from_wine(text: str, prefix: str) -> str:
    drive, rest = text[:2].upper(), text[2:].replace("\\", "/")
    base = "" if drive == "Z:" else os.path.join(prefix, "drive_c")
    return os.path.realpath(base + rest)


def run_wine(base: Path, env: Dict[str, str]) -> Tuple[List[str], List[str]]:
    args = ["env"]
    for op, arg in scenarios.OPS:
        if op == "load":
            flags, rel = arg.split(",", 1)
            args.append(f"load={flags},{to_wine(base / rel)}")
        elif op == "dir":
            args.append(f"dir={to_wine(base / arg)}")
        else:
            args.append(f"{op}={arg}")
    env = dict(env, WINEPATH=";".join(to_wine(base / d) for d in scenarios.PATH_DIRS))
    out = subprocess.run(
        ["wine", str(base / "bin" / "loader.exe"), *args],
        env=env,
        cwd=base / "cwd",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.splitlines()
    return out[0].split(" -> ", 1)[1].split(";"), out[1:]


def replay(base: Path, prefix: str, wine_path: List[str]) -> List[str]:
    """The model's answer for each operation, in the loader exe's output format."""
    win = os.path.join(prefix, "drive_c", "windows")
    proc = WindowsProcess(
        read_binary,
        HostFileSystem(case_insensitive=True),
        WindowsConfig(
            machine="x86_64",
            app_dir=str(base / "bin"),
            system32=os.path.join(win, "system32"),
            system=os.path.join(win, "system"),
            windows=win,
            cwd=str(base / "cwd"),
            path=tuple(from_wine(p, prefix) for p in wine_path),
        ),
    )
    lines = []
    for op, arg in scenarios.OPS:
        if op == "load":
            flags, rel = arg.split(",", 1)
            outcome = proc.load_library(str(base / rel), int(flags, 16))
            assert RUNTIME_ONLY_NOTE in outcome.notes
            result = "ok" if outcome.error == 0 else f"error {outcome.error}"
            lines.append(f"load {base / rel} -> {result}")
        elif op == "dir":
            proc.add_dll_directory(str(base / arg))
            lines.append(f"dir {base / arg} -> ok")
        else:
            lines.append(f"mod {arg} -> {proc.module(arg) or 'none'}")
    return lines


def normalise(line: str, prefix: str) -> str:
    head, _, value = line.partition(" -> ")
    kind, _, subject = head.partition(" ")
    if kind in ("load", "dir"):
        subject = from_wine(subject, prefix) if ":" in subject else os.path.realpath(subject)
    if kind == "mod" and value != "none":
        value = from_wine(value, prefix) if ":" in value[:2] else os.path.realpath(value)
    return f"{kind} {subject} -> {value}"


@pytest.fixture(scope="module")
def both(wine_env: Dict[str, str], wine_scenarios: Path) -> List[Tuple[str, str, str]]:
    prefix = wine_env["WINEPREFIX"]
    wine_path, wine_lines = run_wine(wine_scenarios, wine_env)
    model_lines = replay(wine_scenarios, prefix, wine_path)
    assert len(wine_lines) == len(model_lines) == len(scenarios.OPS)
    return [
        (f"{op}={arg}", normalise(w, prefix), normalise(m, prefix))
        for (op, arg), w, m in zip(scenarios.OPS, wine_lines, model_lines)
    ]


# DllMain of efail.dll returns FALSE: Wine fails the load (1114) and unloads it; the model
# can only predict the binding (pkgE/efail.dll) and says DllMain is a run-time matter.
RUNTIME_ONLY = {"load=1100,pkgE/e1.dll", "mod=efail.dll"}


def test_model_predicts_every_wine_binding_and_error(both: List[Tuple[str, str, str]]) -> None:
    mismatches = [(op, w, m) for op, w, m in both if w != m and op not in RUNTIME_ONLY]
    assert mismatches == []


def test_dllmain_failure_is_runtime_only(both: List[Tuple[str, str, str]]) -> None:
    seen = {op: (w, m) for op, w, m in both}
    wine, model = seen["load=1100,pkgE/e1.dll"]
    assert wine.endswith(f"error {ERROR_DLL_INIT_FAILED}") and model.endswith("-> ok")
    wine, model = seen["mod=efail.dll"]
    assert wine.endswith("none") and model.endswith("/pkgE/efail.dll")


def test_scenarios_exercise_each_outcome(both: List[Tuple[str, str, str]]) -> None:
    wine = {op: line.rsplit(" -> ", 1)[1] for op, line, _ in both}
    assert wine["load=1100,pkgB/b1.dll"] == "error 126"
    assert wine["load=0,pkgB/b1.dll"] == "ok"  # torch's retry: plain LoadLibraryW, PATH searched
    assert wine["load=1100,pkgE/e1.dll"] == "error 1114"
    assert wine["load=0,pkgF/x86.dll"] == "error 193"
    assert wine["load=1000,pkgG/g1.dll"] == "error 126"
    assert wine["load=0,pkgI/i1.dll"] == "error 126"
    assert wine["mod=p1dep.dll"].endswith("/pollute/p1dep.dll")
    assert wine["mod=p2dep.dll"].endswith("/pkgA/p2dep.dll")
    assert wine["mod=shared.dll"].endswith("/pkgD1/shared.dll")
    assert wine["mod=w32dep.dll"].endswith("/extra/w32dep.dll")
    # an unreadable import found first ends the search: extra/'s good copy is never reached
    assert wine["load=1100,pkgJ/j1.dll"] == wine["load=1100,pkgK/k1.dll"] == "error 126"
    assert wine["mod=jdep.dll"] == wine["mod=kdep.dll"] == "none"
    assert wine["load=0,pkgL/l1.dll"] == "error 193"

