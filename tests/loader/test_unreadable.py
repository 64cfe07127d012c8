"""A dependency found but not loadable is ``unreadable``, never ``wrong-architecture``.

The oracle is the real ld.so: a program whose library is found first, spoiled, in an
LD_LIBRARY_PATH folder, with a good copy waiting in its RUNPATH folder. ld.so stops at the
spoiled copy ("file too short", "invalid ELF header", SIGBUS for a copy cut inside its
loaded segments) and never reaches the good one; a copy of another machine is skipped; a
copy cut only in its section headers loads. The model must agree at every cut point.
(Windows: tests/data/wine scenarios 13-15, judged by Wine in test_windows_wine.py.)
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from need_tool import need
from oracles import model

from dldoctor.binary import read_binary
from dldoctor.loader.graph import HostFileSystem
from dldoctor.loader.macos import MacConfig, resolve_macos

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "binary"))
from _hostile import macho64


@dataclass(frozen=True)
class Program:
    exe: Path
    good: Path  # the good libzz.so, in the RUNPATH folder
    bad: Path  # where the spoiled copy goes (an LD_LIBRARY_PATH folder)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    base = tmp_path_factory.mktemp("unreadable")
    gcc = need("gcc")
    (base / "good").mkdir()
    (base / "bad").mkdir()
    (base / "zz.c").write_text("int zz(void) { return 7; }\n")
    (base / "main.c").write_text("int zz(void);\nint main(void) { return zz() == 7 ? 0 : 1; }\n")
    good = base / "good" / "libzz.so"
    subprocess.run([gcc, "-shared", "-fPIC", "-o", str(good), str(base / "zz.c"), "-Wl,-soname,libzz.so"],
                   check=True, capture_output=True)
    exe = base / "main"
    subprocess.run([gcc, "-o", str(exe), str(base / "main.c"), f"-L{base / 'good'}", "-lzz",
                    "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/good"], check=True, capture_output=True)
    return Program(exe, good, base / "bad" / "libzz.so")


def ld_so_runs(p: Program) -> bool:
    env = dict(os.environ, LD_LIBRARY_PATH=str(p.bad.parent))
    return subprocess.run([str(p.exe)], env=env, capture_output=True, check=False).returncode == 0


def zz(p: Program) -> tuple:  # type: ignore[type-arg]
    graph = model(str(p.exe), {"LD_LIBRARY_PATH": str(p.bad.parent)})
    res = next(e.resolution for e in graph.edges if e.resolution.name == "libzz.so")
    return res.rule, res.path, res.shadowed, graph


def test_every_cut_point_agrees_with_ld_so(program: Program) -> None:
    data = program.good.read_bytes()
    outcomes = set()
    for cut in range(0, len(data), max(1, len(data) // 150)):
        program.bad.write_bytes(data[:cut])
        rule, path, shadowed, graph = zz(program)
        runs = ld_so_runs(program)
        if runs:
            assert (rule, path) == ("ld_library_path", str(program.bad)), cut
        else:
            assert (rule, path, shadowed) == ("unreadable", None, (str(program.bad),)), cut
            assert graph.error == "unreadable" and dict(graph.unreadable)[str(program.bad)]
        outcomes.add(runs)
    assert outcomes == {True, False}  # cuts in the section headers load; the rest do not


@pytest.mark.parametrize("spoil", ["empty", "text", "wrong-machine"])
def test_spoiled_copy_first_in_the_search(program: Program, spoil: str) -> None:
    data = program.good.read_bytes()
    if spoil == "empty":
        program.bad.write_bytes(b"")
    elif spoil == "text":
        program.bad.write_bytes(b"INPUT(-lzz_real)\n" * 20)  # a linker script named like the library
    else:
        program.bad.write_bytes(data[:18] + (183).to_bytes(2, "little") + data[20:])  # EM_AARCH64
    rule, path, _, _ = zz(program)
    if spoil == "wrong-machine":  # skipped as ld.so skips it; the RUNPATH copy binds
        assert ld_so_runs(program) and (rule, path) == ("runpath", str(program.good))
    else:
        assert not ld_so_runs(program) and rule == "unreadable"


def test_deps_reports_unreadable_in_text_and_json(program: Program) -> None:
    program.bad.write_bytes(program.good.read_bytes()[:4000])
    env = dict(os.environ, LD_LIBRARY_PATH=str(program.bad.parent))
    run = lambda *a: subprocess.run([sys.executable, "-m", "dldoctor", "deps", *a, str(program.exe)],  # noqa: E731
                                    env=env, capture_output=True, text=True, check=False)
    text = run()
    assert text.returncode == 1, text.stderr
    line = next(ln for ln in text.stdout.splitlines() if "libzz.so [" in ln)
    assert "[unreadable]" in line and "wrong-architecture" not in text.stdout
    assert f"unreadable: {program.bad}: PT_LOAD segment" in text.stdout
    assert "load would fail: unreadable" in text.stdout
    doc = json.loads(run("--format", "json").stdout)
    dep = next(d for d in doc["dependencies"] if d["name"] == "libzz.so")
    assert (dep["rule"], dep["path"], dep["shadowed"]) == ("unreadable", None, [str(program.bad)])
    assert doc["error"] == "unreadable"
    assert [u["path"] for u in doc["unreadable"]] == [str(program.bad)]


def test_dyld_moves_past_an_unreadable_candidate(tmp_path: Path) -> None:
    """dyld lists a bad file among the paths it "tried" and goes on to the next candidate;
    only when nothing else answers is the request ``unreadable``."""
    app = macho64(tmp_path / "app", name=b"@rpath/libdep.dylib")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "libdep.dylib").write_bytes(b"\xcf\xfa\xed\xfe truncated")
    macho64(tmp_path / "b" / "libdep.dylib", commands=0)
    config = MacConfig(dyld_library_path=(str(tmp_path / "a"), str(tmp_path / "b")))
    graph = resolve_macos(str(app), read_binary, HostFileSystem(), config)
    res = next(e.resolution for e in graph.edges if e.requester == str(app))
    assert (res.rule, res.path) == ("dyld_library_path", str(tmp_path / "b" / "libdep.dylib"))
    assert graph.error is None and [p for p, _ in graph.unreadable] == [str(tmp_path / "a" / "libdep.dylib")]
    (tmp_path / "b" / "libdep.dylib").unlink()
    graph = resolve_macos(str(app), read_binary, HostFileSystem(), config)
    res = next(e.resolution for e in graph.edges if e.requester == str(app))
    assert (res.rule, res.path, res.shadowed) == ("unreadable", None, (str(tmp_path / "a" / "libdep.dylib"),))
    assert graph.error == "unreadable"
