"""`dldoctor fleet --ray` against a real local Ray cluster (ray.cluster_utils.Cluster: a head
and worker nodes, each a real raylet with its own worker processes), where one node is made
different for real: it was started with LD_LIBRARY_PATH naming a folder with another
libgomp.so.1, which every process on it inherits. A slow node that does not answer in time,
and a node killed during collection, are rows of the report; the run completes.

One cluster per session, tiny resources (the machine is shared): 1 CPU and 80 MB of object
store per node, quick health checks so a killed node is noticed in seconds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from dldoctor.fleet.group import Machine, judge_fleet
from dldoctor.snapshot import ray_task
from dldoctor.snapshot.collect import BOOT, COLLECTOR
from dldoctor.snapshot.ray_fleet import MISSING, _config, node_names, to_snapshot
from tests.conftest import run_dldoctor
from tests.fleet.helpers import foreign_gomp, validate_fleet

NODE = {"num_cpus": 1, "object_store_memory": 80 * 2**20}
SLOW_SITE = """\
import sys, time
if len(sys.argv) > 1 and sys.argv[1].endswith("facts.json"):  # only the collector, not Ray's worker
    open({marker!r}, "a").close()
    time.sleep(300)
"""


def _ray() -> Any:
    return pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[test]' installs it)")


def _with_env(env: Dict[str, str]) -> Any:
    """A context in which a started raylet (and every worker it spawns) inherits ``env``."""
    class Ctx:
        def __enter__(self) -> None:
            self.old = {k: os.environ.get(k) for k in env}
            os.environ.update(env)

        def __exit__(self, *exc: object) -> None:
            for k, v in self.old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return Ctx()


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuple[Any, Any, Path]]:
    """(cluster, the odd node, its foreign library folder): head + plain node + odd node."""
    _ray()
    from ray.cluster_utils import Cluster

    gomp = foreign_gomp(tmp_path_factory.mktemp("ray") / "modules" / "lib")
    cluster = Cluster(initialize_head=True, head_node_args={
        **NODE, "_system_config": {"health_check_period_ms": 500, "health_check_failure_threshold": 4}})
    try:
        cluster.add_node(**NODE)
        with _with_env({"LD_LIBRARY_PATH": str(gomp)}):
            odd = cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        yield cluster, odd, gomp
    finally:
        cluster.shutdown()


def _names(cluster: Any) -> Dict[str, str]:
    import ray

    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
    try:
        return node_names(ray.nodes())
    finally:
        ray.shutdown()


def _alive(cluster: Any) -> List[str]:
    import ray

    ray.init(address=cluster.address, logging_level="ERROR", log_to_driver=False)
    try:
        nodes = ray.nodes()
        names = node_names(nodes)
        return [names[n["NodeID"]] for n in nodes if n["Alive"]]
    finally:
        ray.shutdown()


def test_fleet_names_the_odd_node_and_the_library_it_loads(ray_cluster: Tuple[Any, Any, Path],
                                                           torch_venv: Path) -> None:
    cluster, odd, gomp = ray_cluster
    names = _names(cluster)
    done = run_dldoctor("fleet", "--ray", cluster.address, "--python", str(torch_venv / "bin" / "python"),
                        "--format", "json", "--timeout", "240")
    assert done.returncode == 1, done.stderr  # a library from elsewhere is an error-weight difference
    doc = json.loads(done.stdout)
    validate_fleet(doc)
    assert doc["machines"] == len(names) and len(_alive(cluster)) == 3
    assert [f["error"] for f in doc["failed"]] == ["node is dead (Ray lists it as not alive)"] * (len(names) - 3)
    base, other = doc["groups"]
    assert len(base["machines"]) == 2 and other["machines"] == [names[odd.node_id]]
    top = other["differences"][0]
    assert (top["kind"], top["subject"], top["weight"]) == ("library-source", "libgomp.so.1", "error")
    assert top["a"].startswith("<env>/") and top["b"].startswith(str(gomp / "libgomp.so.1"))
    assert doc["summary"].startswith("2 nodes alike; 1 differ: libgomp.so.1 (library from elsewhere)")
    assert f"(+1 more) on {names[odd.node_id]}" in doc["summary"]


def _collect(cluster: Any, python: str, timeout: float, out: List[Any]) -> None:
    from dldoctor.snapshot.ray_fleet import collect_ray

    out.extend(collect_ray(cluster.address, python, timeout))


def test_a_slow_node_times_out_and_a_killed_node_is_reported(ray_cluster: Tuple[Any, Any, Path],
                                                             torch_venv: Path, tmp_path: Path) -> None:
    cluster = ray_cluster[0]
    site = tmp_path / "site"
    site.mkdir()
    marker = tmp_path / "collector-started"
    (site / "sitecustomize.py").write_text(SLOW_SITE.format(marker=str(marker)))
    with _with_env({"PYTHONPATH": str(site)}):
        slow = cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    slow_id = slow.node_id
    slow_name = _names(cluster)[slow_id]
    python = str(torch_venv / "bin" / "python")
    try:
        started = time.monotonic()
        rows: List[Any] = []
        # 60 s: the healthy nodes answer in seconds, but a CI machine busy with other tests can
        # take 25 (a run on a loaded machine saw all four time out at 25); the slow one sleeps 300
        _collect(cluster, python, 60, rows)
        assert time.monotonic() - started < 150
        why = {n: e for n, s, e in rows if s is None}
        assert why == {slow_name: "no answer within 60 s"}, rows
        assert sum(1 for _, s, _ in rows if s is not None) == 3

        marker.unlink()
        rows = []
        worker = threading.Thread(target=_collect, args=(cluster, python, 240, rows))
        worker.start()
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline:  # its collector is running now
            time.sleep(0.2)
        assert marker.exists()
        cluster.remove_node(slow, allow_graceful=False)
        slow = None
        worker.join(200)
        assert not worker.is_alive()
        failed = {n: e for n, s, e in rows if s is None}
        assert list(failed) == [slow_name] and failed[slow_name], rows
        report = judge_fleet([Machine(*r) for r in rows])
        assert report.failed == ((slow_name, failed[slow_name]),)
        assert report.summary.endswith(f"1 without a snapshot: {slow_name}")
    finally:
        if slow is not None:
            cluster.remove_node(slow, allow_graceful=False)
        _end_stalled_collectors(site)
        _wait_until_dead(cluster, slow_name)


def _wait_until_dead(cluster: Any, name: str, limit: float = 90.0) -> None:
    """Ray notices a SIGKILLed node only after its health checks fail: wait for that, so
    the next test sees a settled cluster (a node still listed alive gets a task, and its row
    then says the task failed rather than that the node is dead)."""
    deadline = time.monotonic() + limit
    while name in _alive(cluster) and time.monotonic() < deadline:
        time.sleep(1)


def _end_stalled_collectors(site: Path) -> None:
    """The stalled collectors this test started (their environment names its site folder)
    outlive a node killed with SIGKILL; end them by pid, not by name."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            env = (proc / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"PYTHONPATH={site}".encode() in env:
            try:
                os.kill(int(proc.name), signal.SIGKILL)
            except OSError:
                pass


def test_the_node_task_runs_the_stdlib_collector_where_dldoctor_is_not_installed(
        venv_factory: Any, tmp_path: Path) -> None:
    """The task is sent by value; on a node without dldoctor it runs the collector alone."""
    bare = venv_factory()  # no dldoctor, no Ray: what a node's job interpreter may be
    script = (f"import json, sys\nexec(compile(open({ray_task.__file__!r}).read(), 'ray_task', 'exec'))\n"
              "args = json.load(sys.stdin)\nprint(json.dumps(collect_on_node(*args)))\n")
    args = [None, BOOT, COLLECTOR.read_text(encoding="utf-8"), _config(), 60.0]
    done = subprocess.run([str(bare / "bin" / "python"), "-I", "-c", script], input=json.dumps(args),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert "facts" in result and "snapshot" not in result
    snap, why = to_snapshot(result)
    assert why == "" and snap is not None
    assert snap.interpreter.prefix == str(bare)


def test_without_ray_fleet_says_how_to_install_it() -> None:
    code = ("import sys\nsys.modules['ray'] = None\nfrom dldoctor.cli import main\n"
            "sys.exit(main(['fleet', '--ray', 'auto']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"dldoctor: {MISSING}\n"


def test_no_usable_interpreter_is_a_row_per_node(ray_cluster: Tuple[Any, Any, Path], tmp_path: Path) -> None:
    cluster = ray_cluster[0]
    missing = tmp_path / "no-such-env" / "bin" / "python"
    done = run_dldoctor("fleet", "--ray", cluster.address, "--python", str(missing), "--format", "json")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    validate_fleet(doc)
    alive = _alive(cluster)
    assert doc["groups"] == [] and len(doc["failed"]) == len(alive) + len(_names(cluster)) - len(alive)
    rows = {f["machine"]: f["error"] for f in doc["failed"]}
    assert all(str(missing) in rows[name] for name in alive), rows  # dead nodes (an earlier test's) say so
    assert all(why == "node is dead (Ray lists it as not alive)" for n, why in rows.items() if n not in alive)
    assert doc["summary"] == f"no snapshot could be read; {len(rows)} nodes failed"


def test_unreachable_cluster_is_one_line_exit_2() -> None:
    _ray()
    done = run_dldoctor("fleet", "--ray", "127.0.0.1:1", "--timeout", "5")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "dldoctor: --ray 127.0.0.1:1: cannot connect (nothing answers there: Connection refused)\n"
