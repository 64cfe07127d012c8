"""`dldoctor fleet --from DIR`: a folder as `srun ... dldoctor snapshot -o DIR/%n.json` leaves
it (real per-node snapshots: one real collection per node name), grouped, the majority as
baseline, the odd nodes named with their difference, broken files as rows."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, List

import pytest

from dldoctor.fleet.group import Machine, judge_fleet
from dldoctor.snapshot.collect import load_snapshot
from dldoctor.snapshot.model import Gpu, GpuDevice
from tests.conftest import run_dldoctor
from tests.fleet.helpers import foreign_gomp, validate_fleet


def srun(folder: Path, python: Path, nodes: Dict[str, Dict[str, str]]) -> None:
    """What `srun --nodes=N --ntasks-per-node=1 dldoctor snapshot -o DIR/%n.json` does: one
    real run per node, Slurm naming each (SLURMD_NODENAME) with the node's environment."""
    for node, env in nodes.items():
        done = run_dldoctor("snapshot", "--python", str(python), "-o", f"{folder}/%n.json",
                            env={"SLURMD_NODENAME": node, **env})
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.json" for n in nodes)


def test_slurm_folder_names_the_odd_node_and_its_difference(torch_venv: Path, tmp_path: Path) -> None:
    snaps = tmp_path / "snaps"
    snaps.mkdir()
    gomp = foreign_gomp(tmp_path / "opt" / "lib")
    srun(snaps, torch_venv, {"node-1": {}, "node-2": {}, "node-3": {}, "node-10": {"LD_LIBRARY_PATH": str(gomp)}})
    (snaps / "node-4.json").write_text('{"schema_version": 1, "host": ')  # a node that died mid-write
    (snaps / "node-5.json").write_text("")
    done = run_dldoctor("fleet", "--from", str(snaps), "--format", "json")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    validate_fleet(doc)
    base, odd = doc["groups"]
    assert base["machines"] == ["node-1", "node-2", "node-3"] and base["baseline"] and base["differences"] == []
    assert odd["machines"] == ["node-10"]
    assert odd["differences"][0]["kind"] == "library-source" and odd["differences"][0]["subject"] == "libgomp.so.1"
    assert {f["machine"] for f in doc["failed"]} == {"node-4", "node-5"}
    assert all(f["error"].startswith("not JSON") for f in doc["failed"])
    assert doc["summary"] == ("3 nodes alike; 1 differ: libgomp.so.1 (library from elsewhere), LD_LIBRARY_PATH "
                              "(+1 more) on node-10; 2 without a snapshot: node-4, node-5")
    text = run_dldoctor("fleet", "--from", str(snaps)).stdout
    assert text.splitlines()[2] == doc["summary"]
    md = run_dldoctor("fleet", "--from", str(snaps), "--format", "markdown").stdout
    assert f"**{doc['summary']}**" in md and "| node-4 | not JSON" in md


def test_alike_machines_are_one_group_and_exit_0(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    snaps = tmp_path / "snaps"
    snaps.mkdir()
    venv = venv_factory(["six==1.16.0"])
    srun(snaps, venv, {"a": {}, "b": {"CUDA_VISIBLE_DEVICES": "3"}})  # per-job settings: still alike?
    done = run_dldoctor("fleet", "--from", str(snaps))
    # CUDA_VISIBLE_DEVICES is compared (info): two groups, no error, exit 0
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 node alike; 1 differ: CUDA_VISIBLE_DEVICES on b" in done.stdout


def _driver(snap_path: Path, version: str, names: List[str]) -> List[Machine]:
    base = load_snapshot(str(snap_path))
    gpu = Gpu(True, version, "12.2", (GpuDevice("NVIDIA H100 80GB HBM3", 81559, "9.0"),), "nvml")
    odd = dataclasses.replace(base, host=dataclasses.replace(base.host, gpu=gpu))
    return [Machine(n, odd) for n in names]


def test_count_line_names_driver_groups(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    run_dldoctor("snapshot", "--python", str(venv_factory()), "-o", str(tmp_path / "s.json"))
    base = load_snapshot(str(tmp_path / "s.json"))
    gpu = Gpu(True, "550.54.15", "12.4", (GpuDevice("NVIDIA H100 80GB HBM3", 81559, "9.0"),), "nvml")
    good = dataclasses.replace(base, host=dataclasses.replace(base.host, gpu=gpu))
    old = dataclasses.replace(good, host=dataclasses.replace(good.host, gpu=dataclasses.replace(
        gpu, driver_version="535.104.05", cuda_driver_version="12.2")))
    lld = dataclasses.replace(good, env={**good.env, "LD_LIBRARY_PATH": "/opt/cuda-11/lib64"})
    machines = [Machine(f"node-{i}", good) for i in range(1, 65) if i not in (17, 22, 40)]
    machines += [Machine("node-17", old), Machine("node-22", old), Machine("node-40", lld)]
    report = judge_fleet(machines[::-1])  # input order does not matter
    assert report.summary == ("61 nodes alike; 3 differ: driver 535.104.05 (CUDA 12.2) on node-17, node-22; "
                              "LD_LIBRARY_PATH on node-40")
    assert [len(g.machines) for g in report.groups] == [61, 2, 1]


def test_unreadable_folder_is_exit_2(tmp_path: Path) -> None:
    done = run_dldoctor("fleet", "--from", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and done.stderr.startswith("dldoctor: --from") and done.stderr.count("\n") == 1


def test_snapshot_output_placeholders(tmp_path: Path) -> None:
    done = run_dldoctor("snapshot", "-o", str(tmp_path / "%x.json"))
    assert done.returncode == 2 and "unknown placeholder %x" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content, why", [
    (b"\xff\xfe", "not JSON ("),
    (b"[]", "not a dldoctor snapshot (a snapshot is a JSON object"),
    (b"{}", "not a dldoctor snapshot (unsupported snapshot schema_version"),
    (b'{"schema_version": 1, "env": {"PATH": 3}}', "not a dldoctor snapshot (snapshot.env.PATH: expected str"),
])
def test_corrupt_files_are_rows(tmp_path: Path, content: bytes, why: str) -> None:
    (tmp_path / "n1.json").write_bytes(content)
    done = run_dldoctor("fleet", "--from", str(tmp_path), "--format", "json")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    validate_fleet(doc)
    assert doc["groups"] == [] and doc["failed"][0]["error"].startswith(why), doc
    assert doc["summary"] == "no snapshot could be read; 1 node failed"


def test_what_ray_prints_while_collecting_never_reaches_stdout() -> None:
    """Ray's driver prints node events to file descriptor 1 (native code and Python alike);
    during collection fd 1 is stderr, so `fleet --format json` stays one JSON document."""
    code = (
        "import os, sys\n"
        "from dldoctor.snapshot.ray_fleet import stdout_to_stderr\n"
        "with stdout_to_stderr():\n"
        "    os.write(1, b'(raylet) node marked dead\\n'); print('python print')\n"
        "print('{}')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "{}\n"
    assert "(raylet) node marked dead" in done.stderr and "python print" in done.stderr
