"""Benchmark: `dldoctor probe torch` against a bare `python -c "import torch"`.

Prints medians and the ratio (target <= 1.3x, issue 5). Runs the peers side by side,
interleaved, so machine noise hits both alike:

    python bench/bench_probe.py [--python PY] [--runs 7]

PY defaults to the suite's torch venv (.cache/venvs/torch-*/, built by the tests).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List

ROOT = Path(__file__).resolve().parents[1]


def _timed(fn: Callable[[], object]) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    found = sorted(ROOT.glob(".cache/venvs/torch-*/bin/python"))
    parser.add_argument("--python", default=str(found[0]) if found else "")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    py = args.python
    if not py or not Path(py).exists():
        print(f"no torch interpreter at {py} (run tests/probe once to build it)")
        return 2

    from dldoctor.probe import probe_findings, run_probes

    def bare() -> None:
        subprocess.run([py, "-c", "import torch"], check=True, stdin=subprocess.DEVNULL,
                       capture_output=True)

    def bare_no_teardown() -> None:
        # The probe's child ends with os._exit (teardown is not the import): the fair floor.
        subprocess.run([py, "-c", "import torch, os; os._exit(0)"], check=True,
                       stdin=subprocess.DEVNULL, capture_output=True)

    def api() -> None:
        report = run_probes(py, ["torch"], timeout=120)
        assert report.imports[0].ok, report.imports[0].summary()
        probe_findings(report)

    def cli() -> None:
        subprocess.run([sys.executable, "-m", "dldoctor", "probe", "--python", py, "torch",
                        "--format", "json"], check=True, capture_output=True)

    peers: Dict[str, Callable[[], None]] = {
        'python -c "import torch"': bare, "same, skipping teardown": bare_no_teardown,
        "run_probes(torch)": api,
        "dldoctor probe torch (CLI)": cli}
    bare()  # warm the page cache once for everyone
    times: Dict[str, List[float]] = {name: [] for name in peers}
    for _ in range(args.runs):
        for name, fn in peers.items():
            times[name].append(_timed(fn))
    bare_times = times['python -c "import torch"']
    base, base_min = statistics.median(bare_times), min(bare_times)
    print(f"{'peer':<30} {'median s':>9} {'ratio':>6} {'min s':>7} {'ratio':>6}")
    for name, values in times.items():
        med, low = statistics.median(values), min(values)
        print(f"{name:<30} {med:>9.3f} {med / base:>5.2f}x {low:>7.3f} {low / base_min:>5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
