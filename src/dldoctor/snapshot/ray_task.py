"""The task ``fleet --ray`` runs on every node, inside a Ray worker there.

It is sent by value (cloudpickle), not by import, so a node whose Python lacks dldoctor
can still run it: with dldoctor importable there it takes the node's full snapshot
(collector, library headers, loader facts, GPU driver), exactly as ``dldoctor snapshot``
would on that node; without it, it runs the stdlib collector alone in the interpreter
and returns its raw facts, which the driver validates. The interpreter is ``python`` or
the worker's own (``sys.executable``: the one the job runs in on that node). Nothing here
raises: every failure comes back as ``{"error": ...}`` so the report can make it a row.
"""

from __future__ import annotations

from typing import Any, Dict, Optional


def collect_on_node(python: Optional[str], boot: str, collector: str, config: str, timeout: float) -> Dict[str, Any]:
    import json
    import os
    import socket
    import subprocess
    import sys
    import tempfile

    out: Dict[str, Any] = {"host": socket.gethostname(), "python": python or sys.executable}
    try:
        from dldoctor.snapshot.collect import collect_snapshot
    except Exception:  # dldoctor is not installed on this node: the stdlib collector alone
        collect_snapshot = None  # type: ignore[assignment]
    try:
        if collect_snapshot is not None:
            out["snapshot"] = collect_snapshot(out["python"]).to_dict()
            return out
        tmp = tempfile.mkdtemp(prefix="dldoctor-ray-")
        facts = os.path.join(tmp, "facts.json")
        open(facts, "wb").close()
        with tempfile.TemporaryFile() as src:
            src.write(collector.encode("utf-8"))
            src.seek(0)
            env = dict(os.environ, PYTHONIOENCODING="utf-8")
            env.pop("PYTHONSTARTUP", None)
            done = subprocess.run([out["python"], "-c", boot, facts, config], stdin=src, env=env,
                                  capture_output=True, timeout=timeout)
        with open(facts, "rb") as fh:
            raw = fh.read(64 << 20)
        if done.returncode != 0 or not raw.strip():
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            out["error"] = f"{out['python']} could not run the collector: " + (
                lines[-1] if lines else f"exit status {done.returncode}")
        else:
            out["facts"] = json.loads(raw.decode("utf-8"))
    except subprocess.TimeoutExpired:
        out["error"] = f"{out['python']} did not answer within {timeout:.0f} s"
    except Exception as exc:  # the task reports; it never dies with the patient
        out["error"] = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return out
