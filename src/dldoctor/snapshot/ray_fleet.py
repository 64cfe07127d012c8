"""``fleet --ray ADDRESS``: one snapshot per alive node of a Ray cluster.

dldoctor ships no transport of its own (DESIGN §12): Ray places one task on every alive
node with ``NodeAffinitySchedulingStrategy(node_id, soft=False)`` (it runs there or not at
all), the task (:mod:`.ray_task`) runs the collector in the node's interpreter, and the
results are gathered with one deadline for all. A dead node, a task that fails, a node that
dies during collection, and no answer in time are each a row (name, why), never a crash.

Ray is an optional extra (``pip install 'dldoctor[fleet]'``), imported only here, only when
``--ray`` is given.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

from dldoctor.conditions.frameworks import framework_table, known_importers
from dldoctor.errors import DldoctorError
from dldoctor.redact import secret_table
from dldoctor.snapshot import ray_task
from dldoctor.snapshot.collect import BOOT, COLLECTOR, TIMEOUT_S, _snapshot_data, schema_problem
from dldoctor.snapshot.model import Snapshot, from_jsonable

Row = Tuple[str, Optional[Snapshot], str]  # (node, snapshot, why none)
MISSING = "--ray needs Ray, which is not installed: pip install 'dldoctor[fleet]'"


def import_ray() -> Any:
    try:
        import ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: F401
    except ImportError:
        raise DldoctorError(MISSING) from None
    return ray


def node_names(nodes: List[Dict[str, Any]]) -> Dict[str, str]:
    """NodeID -> a name for the report: the host name, with the node id's start where
    several nodes share a host (a local test cluster, several raylets per machine)."""
    hosts = [str(n.get("NodeManagerHostname") or n.get("NodeManagerAddress") or "node") for n in nodes]
    out = {}
    for n, host in zip(nodes, hosts):
        nid = str(n.get("NodeID", ""))
        out[nid] = host if hosts.count(host) == 1 else f"{host}/{nid[:8]}"
    return out


def _config() -> str:
    return json.dumps({"frameworks": list(framework_table()), "known_importers": list(known_importers()),
                       "verify_hashes": False, "secrets": secret_table()})


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return f"{type(exc).__name__}: {lines[0][:300]}" if lines else type(exc).__name__


def to_snapshot(result: Any) -> Tuple[Optional[Snapshot], str]:
    """A task's answer as a Snapshot, or why it is none."""
    if not isinstance(result, dict):
        return None, "the task answered something that is not a snapshot"
    if result.get("error"):
        return None, str(result["error"])
    try:
        if "snapshot" in result:
            return Snapshot.from_dict(result["snapshot"]), ""
        problem = schema_problem(result.get("facts"))
        if problem:
            return None, f"malformed collector output ({problem})"
        return from_jsonable(Snapshot, _snapshot_data(result["facts"])), ""
    except (ValueError, RecursionError) as exc:
        return None, f"not a dldoctor snapshot ({str(exc)[:200]})"


def reachable(address: str, wait: float = 5.0) -> None:
    """Fail in seconds, with one line, when nothing listens at a HOST:PORT address: Ray
    itself retries a dead address for minutes. ("auto" and ray:// addresses are Ray's.)"""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=wait).close()
    except OSError as exc:
        raise DldoctorError(f"--ray {address}: cannot connect (nothing answers there: "
                            f"{exc.strerror or type(exc).__name__})") from None


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """While Ray runs, file descriptor 1 points at stderr: Ray's driver prints node events
    ("(raylet) The node with node id ... has been marked dead") to stdout even with
    log_to_driver=False, and dldoctor's stdout carries the report (JSON must stay parseable)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def collect_ray(address: str, python: Optional[str] = None, timeout: float = 300.0) -> List[Row]:
    with stdout_to_stderr():
        return _collect_ray(address, python, timeout)


def _collect_ray(address: str, python: Optional[str], timeout: float) -> List[Row]:
    ray = import_ray()
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    started = not ray.is_initialized()
    if started:
        reachable(address)
        try:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False, configure_logging=False)
        except Exception as exc:  # ConnectionError, ValueError (bad address), RuntimeError ...
            raise DldoctorError(f"--ray {address}: cannot connect ({_one_line(exc)})") from None
    try:
        return _gather(ray, NodeAffinitySchedulingStrategy, python, timeout)
    finally:
        if started:
            ray.shutdown()


def _gather(ray: Any, affinity: Any, python: Optional[str], timeout: float) -> List[Row]:
    ray.cloudpickle.register_pickle_by_value(ray_task)  # nodes need not have dldoctor installed
    task = ray.remote(num_cpus=0, max_retries=0)(ray_task.collect_on_node)
    nodes = ray.nodes()
    names = node_names(nodes)
    rows: List[Row] = []
    pending: Dict[Any, str] = {}
    collector, config = COLLECTOR.read_text(encoding="utf-8"), _config()
    per_task = min(TIMEOUT_S, timeout)
    for n in nodes:
        nid, name = str(n.get("NodeID", "")), names[str(n.get("NodeID", ""))]
        if not n.get("Alive"):
            rows.append((name, None, "node is dead (Ray lists it as not alive)"))
            continue
        ref = task.options(scheduling_strategy=affinity(node_id=nid, soft=False)).remote(
            python, BOOT, collector, config, per_task)
        pending[ref] = name
    deadline = time.monotonic() + timeout
    while pending:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        done, _ = ray.wait(list(pending), num_returns=1, timeout=left)
        for ref in done:
            name = pending.pop(ref)
            try:
                snap, why = to_snapshot(ray.get(ref))
            except Exception as exc:  # RayError: the node died, the worker crashed, unschedulable
                snap, why = None, _one_line(exc)
            rows.append((name, snap, why))
    for ref, name in pending.items():
        try:
            ray.cancel(ref, force=True)
        except Exception:  # already gone with its node: nothing left to stop
            pass
        rows.append((name, None, f"no answer within {timeout:.0f} s"))
    return rows
