"""Bench: ``deps`` over every library of the torch + numpy + scipy venv vs ldd and libtree.

Peers run once per library, sequentially (as a user or a script would); dldoctor resolves all
libraries in one process (one ld.so.cache parse, one header read per file). Prints ratios
(target: dldoctor <= 0.5x of each peer).

Usage: python bench/bench_deps.py [VENV]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "loader"))
from ldd_agreement import elf_files

from dldoctor.binary import read_binary
from dldoctor.loader.graph import HostFileSystem
from dldoctor.loader.linux import LinuxLoader, host_config


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run_peer(cmd: List[str], files: List[str]) -> None:
    for f in files:
        subprocess.run([*cmd, f], capture_output=True, check=False)


def run_dldoctor(files: List[str]) -> None:
    loader = LinuxLoader(read_binary, HostFileSystem(), host_config(os.environ))
    for f in files:  # one loader: one cache parse, one header read per file for the whole run
        loader.load(f)


def main() -> None:
    default = next(iter(sorted(Path(".cache/venvs").glob("torch-*"))), Path(".cache/venvs/torch"))
    venv = Path(sys.argv[1] if len(sys.argv) > 1 else default)
    files = sorted(elf_files(venv))
    ours = timed(lambda: run_dldoctor(files))
    ldd = timed(lambda: run_peer(["ldd"], files))
    libtree = timed(lambda: run_peer(["libtree", "-p"], files))
    print(f"libraries: {len(files)}")
    print(f"dldoctor deps (all, one process): {ours:.3f} s")
    print(
        f"ldd once per library:             {ldd:.3f} s   ratio dldoctor/ldd     = {ours / ldd:.3f}"
    )
    print(
        f"libtree once per library:         {libtree:.3f} s   "
        f"ratio dldoctor/libtree = {ours / libtree:.3f}"
    )


if __name__ == "__main__":
    main()
