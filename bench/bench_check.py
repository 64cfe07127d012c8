"""Time `dldoctor check` against `python -m torch.utils.collect_env` and a bare
`python -c "import torch"` on the same venv.

Usage: python bench/bench_check.py [VENV]   (default: the test suite's cached torch venv)
Prints the median of N warm runs of each, the ratios (static <= 0.3x collect_env; with
probes <= 1.3x import torch), and peak RSS.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5


def timed(cmd: Sequence[str]) -> Tuple[float, int]:
    """Wall time of one run, and the peak RSS (KiB) of the slowest child so far."""
    t = time.perf_counter()
    subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env={**os.environ, "PYTHONPATH": ""})
    return time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def median(cmd: Sequence[str]) -> float:
    timed(cmd)  # warm the page cache
    samples: List[float] = [timed(cmd)[0] for _ in range(RUNS)]
    return statistics.median(samples)


def main() -> int:
    venvs = sorted((ROOT / ".cache" / "venvs").glob("torch-*"))
    venv = Path(sys.argv[1]) if len(sys.argv) > 1 else (venvs[0] if venvs else None)
    if venv is None or not (venv / "bin" / "python").exists():
        print("no torch venv: run the test suite once, or pass a venv path", file=sys.stderr)
        return 2
    py = str(venv / "bin" / "python")
    peers = {
        "dldoctor check --no-probe": [sys.executable, "-m", "dldoctor", "check", "--no-probe", "--python", py],
        "dldoctor check (with probes)": [sys.executable, "-m", "dldoctor", "check", "--python", py],
        "python -m torch.utils.collect_env": [py, "-m", "torch.utils.collect_env"],
        'python -c "import torch"': [py, "-c", "import torch"],
    }
    times = {name: median(cmd) for name, cmd in peers.items()}
    base = times["python -m torch.utils.collect_env"]
    print(f"venv: {venv.name}  (median of {RUNS} warm runs)")
    for name, t in times.items():
        print(f"  {name:<36} {t * 1000:8.0f} ms   {t / base:5.2f}x collect_env")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"  peak RSS of any child: {rss / 1024:.0f} MiB (collect_env and import torch included)")
    ratio = times["dldoctor check --no-probe"] / base
    print(f"ratio dldoctor check --no-probe / collect_env = {ratio:.2f} (target <= 0.30)")
    probe_ratio = times["dldoctor check (with probes)"] / times['python -c "import torch"']
    print(f"ratio dldoctor check (with probes) / import torch = {probe_ratio:.2f} (target <= 1.3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
