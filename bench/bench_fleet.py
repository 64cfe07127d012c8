"""Judge and group N snapshots (`dldoctor fleet --from DIR` without the printing): the curve
for 10 / 100 / 1,000 / 10,000 machines, wall time and peak memory of each run.

The snapshots are made by mutating a real one (the test suite's cached torch venv, or the
running interpreter's environment): each file gets its own `created` stamp, and a few
percent of the machines form odd groups, as a real fleet does: an older driver on 3%, an
LD_LIBRARY_PATH on 1%, an older numpy on 1% (at 10,000, files beyond the first 1,000 are
hard links to them, to spare the disk; each is still read and judged). A second curve, "all distinct", gives every
file its own working folder (content differs, relevant facts do not): nothing can be shared
between files, the worst case for the reader.

Each point also times a peer in the same run: a fresh process that only parses every file
with ``json.load`` (no checks, no grouping), the floor any reader of these files pays; the
ratio dldoctor/json.load is what to compare across machines and runs.

Usage: python bench/bench_fleet.py [VENV] [--repeat N]   target: 1,000 machines < 2 s and
< 500 MB. Each point runs in a fresh process (peak RSS is per process, and the page cache is
warm); with --repeat N each point runs N times and the medians are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
SIZES = (10, 100, 1_000, 10_000)
DISTINCT_SIZES = (10, 100, 1_000)


ODD = (0.03, 0.04, 0.05)  # shares of the fleet: old driver, LD_LIBRARY_PATH, numpy 1.26
DISTINCT_FILES = 1_000  # above this, files are hard links (10,000 x 264 KiB would be 2.6 GB of disk)


def variant(base: Dict[str, Any], kind: int, cwd: str = "") -> str:
    """The base snapshot with one odd trait (kind 0: none), as `dldoctor snapshot` writes it."""
    snap = json.loads(json.dumps(base))
    snap["created"] = "CREATED"
    if cwd:
        snap["interpreter"]["cwd"] = cwd
    if kind == 1:
        snap["host"]["gpu"] = {"driver_present": True, "driver_version": "535.104.05", "cuda_driver_version": "12.2",
                               "devices": [{"name": "NVIDIA H100 80GB HBM3", "memory_mib": 81559,
                                            "compute_capability": "9.0", "index": 0}],
                               "source": "nvml", "error": ""}
    elif kind == 2:
        snap["env"]["LD_LIBRARY_PATH"] = "/opt/cuda-11.8/lib64"
    elif kind == 3:
        for d in snap["distributions"]:
            if d["name"].lower() == "numpy":
                d["version"] = "1.26.4"
    return json.dumps(snap, indent=1, sort_keys=True)


def kind_of(i: int, n: int) -> int:
    share = i / n
    return next((k + 1 for k, limit in enumerate(ODD) if share < limit), 0)


def write_fleet(base: Dict[str, Any], n: int, folder: Path, distinct: bool) -> None:
    texts = [variant(base, k) for k in range(4)]
    for i in range(n):
        path = folder / f"node-{i:05d}.json"
        if i >= DISTINCT_FILES and not distinct:
            os.link(folder / f"node-{DISTINCT_FILES - 1:05d}.json", path)  # alike (all odd ones come first)
            continue
        text = variant(base, kind_of(i, n), f"/scratch/job-{i}") if distinct else texts[kind_of(i, n)]
        path.write_text(text.replace('"CREATED"', f'"2026-01-01T00:00:00+00:00/{i}"', 1), encoding="utf-8")


CHILD = """
import sys, time, resource
t = time.perf_counter()
from dldoctor.fleet.group import from_folder, judge_fleet
report = judge_fleet(from_folder(sys.argv[1]), sys.argv[1])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(time.perf_counter() - t, peak, len(report.groups), report.summary[:90])
"""


PEER = """
import json, os, sys, time
t = time.perf_counter()
for name in sorted(os.listdir(sys.argv[1])):
    with open(os.path.join(sys.argv[1], name), "rb") as fh:
        json.load(fh)
print(time.perf_counter() - t)
"""


def child(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True,
                          check=True).stdout


def point(folder: Path, repeat: int) -> str:
    runs: List[Tuple[float, int, str, str]] = []
    peers: List[float] = []
    for _ in range(repeat):
        secs, rss, groups, summary = child(CHILD, folder).split(" ", 3)
        runs.append((float(secs), int(rss), groups, summary.strip()))
        peers.append(float(child(PEER, folder)))
    secs, peer = statistics.median(r[0] for r in runs), statistics.median(peers)
    rss = statistics.median(r[1] for r in runs)
    return (f"{secs:8.2f} s {rss / 1024:6.0f} MB {int(runs[0][2]):4d} groups; json.load alone {peer:6.2f} s, "
            f"ratio {secs / peer:5.1f}x  {runs[0][3]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("venv", nargs="?", help="the environment to snapshot (default: the tests' torch venv)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per point; medians are shown")
    args = parser.parse_args()
    venvs = sorted((ROOT / ".cache" / "venvs").glob("torch-*"))
    target = args.venv or (str(venvs[0]) if venvs else sys.executable)
    with tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
        snap = Path(tmp, "base.json")
        subprocess.run([sys.executable, "-m", "dldoctor", "snapshot", "--python", target, "-o", str(snap)], check=True)
        base = json.loads(snap.read_text(encoding="utf-8"))
        print(f"base snapshot: {snap.stat().st_size / 1024:.0f} KiB, {len(base['distributions'])} distributions, "
              f"{len(base['libraries'])} native libraries ({target})")
        for distinct in (False, True):
            print("\nall distinct (each file its own cwd)" if distinct else "\ntypical fleet (created differs; 5% odd)")
            for n in DISTINCT_SIZES if distinct else SIZES:
                folder = Path(tmp, f"{'d' if distinct else 't'}{n}")
                folder.mkdir()
                t = time.perf_counter()
                write_fleet(base, n, folder, distinct)
                made = time.perf_counter() - t
                print(f"{n:6d} machines {point(folder, args.repeat)}   (writing the files: {made:.1f} s)", flush=True)
                for p in folder.iterdir():
                    p.unlink()
    print(f"\nbench process peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
