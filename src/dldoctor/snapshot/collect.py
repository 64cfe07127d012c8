"""Gather a Snapshot: run the collector inside the target interpreter, add host facts.

This is one of the two layers that touch the machine (DESIGN §1.1). Independent work runs
concurrently: the collector subprocess, the GPU probe and (after the collector) the binary
headers of every native library.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from dldoctor._version import __version__
from dldoctor.conditions.frameworks import framework_table, known_importers
from dldoctor.errors import DldoctorError
from dldoctor.interpreter import resolve_python
from dldoctor.snapshot import gpu as gpu_mod
from dldoctor.snapshot.loaderfacts import interpreter_machine, linux_loader_facts
from dldoctor.snapshot.model import Gpu, Library, Snapshot, from_jsonable

COLLECTOR = Path(__file__).with_name("collector.py")
TIMEOUT_S = 120.0


def run_collector(python: str, verify_hashes: bool = False, cwd: Optional[str] = None) -> Dict[str, Any]:
    """Run collector.py in ``python`` (fed on stdin) and return its JSON facts."""
    config = json.dumps({
        "frameworks": list(framework_table()),
        "known_importers": list(known_importers()),
        "verify_hashes": verify_hashes,
    })
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    env["PYTHONIOENCODING"] = "utf-8"
    try:
        done = subprocess.run(
            [python, "-", config],
            input=COLLECTOR.read_bytes(),
            capture_output=True,
            timeout=TIMEOUT_S,
            env=env,
            cwd=cwd,
            check=False,
        )
    except OSError as exc:
        raise DldoctorError(f"cannot run {python}: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise DldoctorError(f"{python} did not answer within {TIMEOUT_S:.0f} s") from None
    stderr = done.stderr.decode("utf-8", "replace").strip()
    if done.returncode != 0:
        last = stderr.splitlines()[-1] if stderr else f"exit status {done.returncode}"
        raise DldoctorError(f"{python} could not run the collector: {last}")
    try:
        facts = json.loads(done.stdout.decode("utf-8", "replace"))
    except ValueError:
        raise DldoctorError(f"{python} is not a Python 3.8+ interpreter (its output was not JSON)") from None
    if not isinstance(facts, dict):
        raise DldoctorError(f"{python}: unexpected collector output")
    return facts


def _read_header(path: str, dist: Optional[str]) -> Library:
    try:
        from dldoctor.binary import BinaryFormatError, read_binary
    except ImportError:  # readers not available: keep the list, without headers
        return Library(path=path, dist=dist)
    try:
        return Library(path=path, dist=dist, info=read_binary(path).to_dict())
    except (BinaryFormatError, OSError) as exc:
        return Library(path=path, dist=dist, error=str(exc))


def native_libraries(facts: Dict[str, Any]) -> List[Tuple[str, Optional[str]]]:
    out = []
    for d in facts.get("distributions", []):
        for rel in d.get("native_libs", []):
            out.append((os.path.normpath(os.path.join(d["location"], rel)), d.get("name")))
    return out


def collect_snapshot(
    python: Optional[str] = None,
    verify_hashes: bool = False,
    with_headers: bool = True,
    cwd: Optional[str] = None,
) -> Snapshot:
    """Everything checks need about ``python`` (default: this interpreter) and its host."""
    exe = resolve_python(python)
    with ThreadPoolExecutor(max_workers=4) as pool:
        facts_f = pool.submit(run_collector, exe, verify_hashes, cwd)
        facts = facts_f.result()
        system = str(facts.get("host", {}).get("os", ""))
        gpu_f = pool.submit(gpu_mod.collect_gpu, system)
        libs: List[Library] = []
        if with_headers:
            libs = list(pool.map(lambda pd: _read_header(*pd), native_libraries(facts)))
        gpu: Gpu = gpu_f.result()
    facts["host"] = dict(facts.get("host", {}), gpu=gpu)
    data = dict(facts)
    data.pop("collector_version", None)
    data["schema_version"] = 1
    data["dldoctor_version"] = __version__
    data["created"] = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    data["host"] = {k: v for k, v in facts["host"].items() if k != "gpu"}
    try:
        snap = from_jsonable(Snapshot, data)
    except ValueError as exc:
        raise DldoctorError(f"{exe}: collector facts do not fit the snapshot schema: {exc}") from None
    host = snap.host.__class__(**{**snap.host.__dict__, "gpu": gpu})
    windows = None
    if sys.platform == "win32" and snap.host.os == "windows":  # registry facts exist only there
        from dldoctor.snapshot.windows_host import collect_here

        windows = collect_here([snap.interpreter.base_prefix])
    loader = None
    if with_headers and snap.host.os == "linux":
        lib_machine = interpreter_machine(snap.host.machine, snap.interpreter.bits)
        lld = tuple(e.path for e in snap.search_path if e.var == "LD_LIBRARY_PATH")
        loader = linux_loader_facts(tuple(libs), lld, lib_machine, snap.interpreter.bits)
    return snap.__class__(
        **{**snap.__dict__, "host": host, "libraries": tuple(libs), "windows": windows, "loader": loader}
    )


def load_snapshot(path: str) -> Snapshot:
    """Read a snapshot file written by ``dldoctor snapshot``; bad files are exit-2 errors."""
    from dldoctor.inputs import read_json

    data = read_json(path, f"--snapshot {path}", invalid="not a dldoctor snapshot")
    try:
        if isinstance(data, dict):
            data = unredact_home(data)
        return Snapshot.from_dict(data)
    except ValueError as exc:
        raise DldoctorError(f"--snapshot {path}: not a dldoctor snapshot ({exc})") from None
    except RecursionError:
        raise DldoctorError(f"--snapshot {path}: not a dldoctor snapshot (nested too deeply)") from None


PLACEHOLDER_HOME = {"windows": "C:\\Users\\~home~", "other": "/~home~"}
_TILDE = re.compile(r"(?<![\w./\\~-])~(?=$|[\\/])")


def unredact_home(data: Dict[str, Any]) -> Dict[str, Any]:
    """Snapshots show the home folder as ``~``; paths must stay absolute for the loader
    models, so ``~`` becomes an absolute placeholder home (which output hides as ``~``)."""
    raw_host = data.get("host")
    host: Dict[str, Any] = raw_host if isinstance(raw_host, dict) else {}
    if host.get("home") not in ("~", None):
        return data
    home = PLACEHOLDER_HOME["windows" if host.get("os") == "windows" else "other"]

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return _TILDE.sub(lambda _: home, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    out: Dict[str, Any] = walk(data)
    return out
