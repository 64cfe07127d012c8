"""Dependency chains thousands of links deep: every walk is iterative.

A 1,100-deep DT_NEEDED chain raised RecursionError in ``deps``' text output, and the Windows
model mapped imports recursively. The chains are real libraries (``chains``) that ld.so and
Wine load whole; the model must bind every link where they do.
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from chains import elf_chain, pe_chain
from oracles import run_ldd

from dldoctor.binary import read_binary
from dldoctor.loader.graph import HostFileSystem
from dldoctor.loader.windows import CPYTHON_EXTENSION_FLAGS, WindowsConfig, WindowsProcess

DEPTH = 1100  # past Python's default recursion limit (1,000)


@pytest.fixture(scope="module")
def elf_links(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    return elf_chain(tmp_path_factory.mktemp("elfchain"), DEPTH)


def deps(*args: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([sys.executable, "-m", "dldoctor", "deps", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_ld_so_loads_the_whole_chain(elf_links: List[Path]) -> None:
    """The oracle first: ldd resolves all 1,100 names through each link's $ORIGIN."""
    found = run_ldd(str(elf_links[0]))
    assert {n: p for n, p in found.items() if n.startswith("libq")} == {
        p.name: str(p) for p in elf_links[1:]
    }


def test_deps_text_draws_the_whole_chain(elf_links: List[Path]) -> None:
    done = deps(str(elf_links[0]))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    drawn = [ln for ln in lines if "[runpath]" in ln]
    assert len(drawn) == DEPTH
    assert drawn[-1].endswith(f"libq{DEPTH:04d}.so") and f"[depth {DEPTH}]" in drawn[-1]
    assert max(len(ln) for ln in lines) < 200 + len(str(elf_links[0]))  # guides stop at a depth


def test_deps_json_agrees_with_ldd(elf_links: List[Path]) -> None:
    done = deps("--format", "json", str(elf_links[0]))
    assert done.returncode == 0, done.stderr
    ours = {d["name"]: d["path"] for d in json.loads(done.stdout)["dependencies"]}
    theirs = run_ldd(str(elf_links[0]))
    assert {n: ours[n] for n in ours if n.startswith("libq")} == {
        n: p for n, p in theirs.items() if n.startswith("libq")
    }
    assert len([n for n in ours if n.startswith("libq")]) == DEPTH


@pytest.fixture(scope="module")
def pe_links(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    return pe_chain(tmp_path_factory.mktemp("pechain"), DEPTH)


def test_windows_model_maps_the_whole_chain_as_wine_does(
    pe_links: List[Path], wine_env: Dict[str, str], wine_scenarios: Path
) -> None:
    """Wine loads all 1,101 DLLs through the loaded DLL's folder (0x1100); the model's
    depth-first import walk binds the same last link without recursing."""
    root, last = pe_links[0], pe_links[-1]
    to_wine = "Z:" + str(root).replace("/", "\\")
    out = subprocess.run(
        ["wine", str(wine_scenarios / "bin" / "loader.exe"), f"load={CPYTHON_EXTENSION_FLAGS:x},{to_wine}",
         f"mod={last.name}"],
        env=wine_env, capture_output=True, text=True, timeout=300, check=True,
    ).stdout.splitlines()
    assert out[0].endswith("-> ok"), out
    wine_last = out[1].split(" -> ", 1)[1]
    assert wine_last.upper().startswith("Z:")
    prefix = wine_env["WINEPREFIX"]
    win = os.path.join(prefix, "drive_c", "windows")
    proc = WindowsProcess(read_binary, HostFileSystem(case_insensitive=True),
                          WindowsConfig(machine="x86_64", app_dir=str(wine_scenarios / "bin"),
                                        system32=os.path.join(win, "system32"), windows=win))
    outcome = proc.load_library(str(root), CPYTHON_EXTENSION_FLAGS)
    assert outcome.error == 0
    assert proc.module(last.name) == os.path.realpath(wine_last[2:].replace("\\", "/"))
    chain = [e for e in outcome.graph.edges if e.resolution.name.startswith("d")]
    assert len(chain) == DEPTH and all(e.resolution.rule == "dll-load-dir" for e in chain)
