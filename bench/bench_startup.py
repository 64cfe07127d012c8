"""Bench: start-up of the installed command, against ``python -c pass`` and ``ldd``, in one run.

A doctor that takes longer to say its version than the patient takes to import is not run
twice. Targets (issue 10): ``dldoctor --version`` <= 50 ms; ``dldoctor deps LIB`` <= 10x
``ldd LIB`` on libtorch_cpu.so of the torch venv. Each command runs REPS times, interleaved
(so machine load hits all alike); the median is printed, with the ratios.

Bytecode: an installed wheel has its .pyc compiled by pip; an editable checkout under
PYTHONDONTWRITEBYTECODE=1 would recompile every module on each run, so the runs here allow
bytecode to be written (one warm-up run writes it).

Usage: python bench/bench_startup.py [LIB] [--dldoctor PATH] [--reps N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence

TARGET_VERSION_MS = 50.0
TARGET_DEPS_RATIO = 10.0


def default_lib() -> str:
    hits = sorted(Path(".cache/venvs").glob("torch-*/lib/python3*/site-packages/torch/lib/libtorch_cpu.so"))
    return str(hits[0]) if hits else ""


def default_dldoctor() -> List[str]:
    """The console script next to this interpreter (what a user types), else ``python -m``."""
    script = Path(sys.executable).with_name("dldoctor")
    return [str(script)] if script.exists() else [sys.executable, "-m", "dldoctor"]


def once(cmd: Sequence[str], env: Dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                   env=env, check=False)
    return (time.perf_counter() - start) * 1000.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lib", nargs="?", default=default_lib(), help="library for deps vs ldd (default: libtorch_cpu.so)")
    ap.add_argument("--dldoctor", help="the dldoctor command to time (default: the one beside this python)")
    ap.add_argument("--reps", type=int, default=25)
    opts = ap.parse_args()
    dld = [opts.dldoctor] if opts.dldoctor else default_dldoctor()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cases: Dict[str, List[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "dldoctor --version": [*dld, "--version"],
        "dldoctor --help": [*dld, "--help"],
    }
    if opts.lib and shutil.which("ldd"):
        cases["ldd LIB"] = ["ldd", opts.lib]
        cases["dldoctor deps LIB"] = [*dld, "deps", opts.lib]
    else:
        print("deps vs ldd: skipped (no LIB given or found, or no ldd)")
    for cmd in cases.values():  # warm-up: page cache, and .pyc written
        once(cmd, env)
    times: Dict[str, List[float]] = {name: [] for name in cases}
    for _ in range(opts.reps):
        for name, cmd in cases.items():
            times[name].append(once(cmd, env))
    med = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"command: {' '.join(dld)}; lib: {opts.lib or '-'}; median of {opts.reps} interleaved runs")
    base = med["python -c pass"]
    for name, ms in med.items():
        print(f"{name:<20} {ms:8.1f} ms   x{ms / base:5.1f} python -c pass")
    ok = med["dldoctor --version"] <= TARGET_VERSION_MS
    print(f"--version: {med['dldoctor --version']:.1f} ms (target <= {TARGET_VERSION_MS:.0f} ms) "
          f"{'ok' if ok else 'MISSED'}")
    if "ldd LIB" in med:
        ratio = med["dldoctor deps LIB"] / med["ldd LIB"]
        ok_deps = ratio <= TARGET_DEPS_RATIO
        print(f"deps/ldd: {ratio:.1f}x (target <= {TARGET_DEPS_RATIO:.0f}x) {'ok' if ok_deps else 'MISSED'}")
        ok = ok and ok_deps
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
