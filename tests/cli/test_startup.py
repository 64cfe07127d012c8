"""Start-up pays only for the command that runs (issue 10: --version took 175 ms because
every subcommand and its data loaded to build the parser). Timing lives in
bench/bench_startup.py; these tests pin what each entry point may import."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Set

import pytest

from dldoctor.cli import COMMANDS

# render/__init__ and render/text import nothing at module level (deps prints through them).
HEAVY = ("tomllib", "tomli", "packaging", "dldoctor.conditions", "dldoctor.checks", "dldoctor.model",
         "dldoctor.snapshot", "dldoctor.explainer", "dldoctor.probe", "dldoctor.lint", "dldoctor.wheelset",
         "dldoctor.render.json", "dldoctor.render.markdown", "dldoctor.render.lint", "dldoctor.report")


PROBE = """
import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True) if sys.argv[0] != "-c" else exec(sys.argv[1])
except SystemExit:
    pass
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""


def imported(*args: str) -> Set[str]:
    """Modules loaded by a real run of ``python -m MODULE ARGS`` or ``python -c CODE``."""
    argv = list(args[1:]) if args[0] == "-m" else list(args)
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    (line,) = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")]
    return set(line.split()[1:])


def heavy(mods: Set[str]) -> Set[str]:
    return {m for m in mods if any(m == h or m.startswith(h + ".") for h in HEAVY)}


def test_import_dldoctor_loads_only_the_version() -> None:
    mods = imported("-c", "import dldoctor")
    assert {m for m in mods if m.startswith("dldoctor")} == {"dldoctor", "dldoctor._version"}


def test_public_names_still_load_on_use() -> None:
    done = subprocess.run([sys.executable, "-c", "from dldoctor import Finding, Severity, Snapshot, diagnose, "
                           "__version__; import dldoctor; print(dldoctor.Report.__name__, Severity.ERROR.name)"],
                          capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.split() == ["Report", "ERROR"]


@pytest.mark.parametrize("args", [("--version",), ("--help",)])
def test_version_and_help_import_no_subcommand(args: tuple) -> None:  # type: ignore[type-arg]
    mods = imported("-m", "dldoctor", *args)
    assert not {f"dldoctor.cli.{name}" for name in COMMANDS} & mods
    assert heavy(mods) == set()


def test_help_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "dldoctor", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for name, line in COMMANDS.items():
        assert name in done.stdout and line.split()[0] in done.stdout


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_registers_its_own_options(name: str) -> None:
    mods = imported("-m", "dldoctor", name, "--help")
    assert f"dldoctor.cli.{name}" in mods
    assert not {f"dldoctor.cli.{other}" for other in COMMANDS if other != name} & mods
    done = subprocess.run([sys.executable, "-m", "dldoctor", name, "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.startswith(f"usage: dldoctor {name}"), done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resolves this interpreter's ELF file")
def test_deps_loads_only_the_linux_model() -> None:
    mods = imported("-m", "dldoctor", "deps", os.path.realpath(sys.executable))
    assert heavy(mods) == set()
    # (json is read: every output passes the secret table, render/secrets.json, see dldoctor.redact)
    assert not {"dldoctor.loader.windows", "dldoctor.loader.macos"} & mods
    assert "dldoctor.loader.linux" in mods
