"""Benchmark dldoctor's header readers against pyelftools, pefile and macholib.

Reads the same facts (DT_NEEDED / SONAME / RPATH / RUNPATH / symbol versions;
PE import, delay-import and export names and the version resource; Mach-O
load commands) from the same files and prints per-file times (warm page
cache) with ratios, then the peak memory of reading the smallest and the
largest file of each set, each in a fresh subprocess (tracemalloc peak and
the process's VmHWM): ours must not grow with file size.

Needs the test corpus and the torch venv (run the slow tests in tests/binary
once, or tests/data/binary/fetch_corpus.py). Usage: python bench/bench_binary.py
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Sequence

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "binary"))

from _binary_oracles import (  # noqa: E402
    binaries,
    elf_pyelftools,
    macho_macholib,
    pe_pefile,
)

from dldoctor.binary import read_binary  # noqa: E402

PEERS = {"elf": elf_pyelftools, "pe": pe_pefile, "macho": macho_macholib}
PEER_NAMES = {"elf": "pyelftools", "pe": "pefile", "macho": "macholib"}

_MEMORY_PROBE = r"""
import json, sys, tracemalloc
sys.path.insert(0, sys.argv[3])
from _binary_oracles import elf_pyelftools, macho_macholib, pe_pefile
from dldoctor.binary import read_binary
fn = {"ours": read_binary, "elf": elf_pyelftools, "pe": pe_pefile, "macho": macho_macholib}
tracemalloc.start()
fn[sys.argv[1]](sys.argv[2])
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec.
with open("/proc/self/status") as f:
    rss = [int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:")][0]
print(json.dumps({"peak": peak, "maxrss": rss}))
"""


def _per_file_ms(fn: Callable[[Path], object], files: Sequence[Path], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for p in files:
            fn(p)
        best = min(best, time.perf_counter() - t0)
    return best * 1000 / len(files)


def _memory(tool: str, path: Path) -> dict:  # type: ignore[type-arg]
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, tool, str(path), str(REPO / "tests" / "binary")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def _mib(n: float) -> str:
    return f"{n / 1048576:.2f} MiB"


def bench(label: str, fmt: str, files: List[Path]) -> None:
    for p in files:  # warm the page cache
        read_binary(str(p))
    ours = _per_file_ms(lambda p: read_binary(str(p)), files, rounds=5)
    peer = _per_file_ms(PEERS[fmt], files, rounds=1)
    print(
        f"{label}: {len(files)} files; dldoctor {ours:.3f} ms/file, "
        f"{PEER_NAMES[fmt]} {peer:.3f} ms/file: {peer / ours:.0f}x faster"
    )
    by_size = sorted(files, key=lambda p: p.stat().st_size)
    for which, path in (("smallest", by_size[0]), ("largest", by_size[-1])):
        size = path.stat().st_size
        mine, theirs = _memory("ours", path), _memory(fmt, path)
        print(
            f"  {which} {path.name} ({_mib(size)}): peak allocations: dldoctor "
            f"{_mib(mine['peak'])}, {PEER_NAMES[fmt]} {_mib(theirs['peak'])}; "
            f"process max RSS {_mib(mine['maxrss'])} vs {_mib(theirs['maxrss'])}"
        )


def main() -> None:
    spec = importlib.util.spec_from_file_location(
        "fetch_corpus", REPO / "tests" / "data" / "binary" / "fetch_corpus.py"
    )
    assert spec and spec.loader
    fetch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fetch)
    corpus = fetch.fetch_all(REPO / ".cache" / "corpus")
    venvs = sorted((REPO / ".cache" / "venvs").glob("torch-*"))
    if not venvs:
        sys.exit("no torch venv: run the test suite once to build it")
    venv = venvs[0]
    bench("torch venv ELF", "elf", binaries(venv, "elf"))
    win = [p for g in ("win_amd64", "win32") for p in binaries(corpus[g], "pe")]
    bench("win wheels PE", "pe", win)
    groups = ("macos_arm64", "macos_x86_64", "macos_universal2")
    bench("macOS wheels Mach-O", "macho", [p for g in groups for p in binaries(corpus[g], "macho")])


if __name__ == "__main__":
    main()
