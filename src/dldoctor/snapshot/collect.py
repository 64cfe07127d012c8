"""Gather a Snapshot: run the collector inside the target interpreter, add host facts.

This is one of the two layers that touch the machine (DESIGN §1.1). Independent work runs
concurrently: the collector subprocess, the GPU probe and (after the collector) the binary
headers of every native library.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

from packaging.utils import canonicalize_name

from dldoctor._version import __version__
from dldoctor.conditions.compat import numpy_scan_names
from dldoctor.conditions.frameworks import framework_table, known_importers
from dldoctor.conditions.instruction_sets import KNOWN_FLAGS
from dldoctor.conditions.native import native_data
from dldoctor.errors import DldoctorError
from dldoctor.inputs import InputError, loads_bounded
from dldoctor.interpreter import resolve_python, unsupported, version_guard
from dldoctor.redact import secret_table
from dldoctor.snapshot import gpu as gpu_mod
from dldoctor.snapshot.loaderfacts import interpreter_machine, linux_loader_facts
from dldoctor.snapshot.model import SCHEMA_VERSION, Gpu, Host, Interpreter, Library, Snapshot, from_jsonable
from dldoctor.supervise import Outcome, run_supervised

COLLECTOR = Path(__file__).with_name("collector.py")
COLLECTOR_VERSION = 1  # collector.py's COLLECTOR_VERSION (a test keeps them equal)
TIMEOUT_S = 120.0
MAX_FACTS = 64 << 20  # bytes: a real environment's facts are a few MB
# The collector is fed on stdin after this guard (-c BOOT FACTS_FILE CONFIG): an old Python
# writes its version to the facts file instead of failing to compile 3.8+ code.
BOOT = version_guard(1, '{"unsupported_python": "%d.%d.%d"}') + (
    "sys.argv[0] = '<dldoctor-collector>'\n"
    "exec(compile(sys.stdin.buffer.read(), '<dldoctor-collector>', 'exec'),"
    " {'__name__': '__main__', '__builtins__': __builtins__})\n"
)
# Fields the collector always writes; the rest of the Snapshot is added here.
_ADDED_HERE = {"schema_version", "dldoctor_version", "created", "libraries", "loader", "windows"}
_REQUIRED = {
    "": {f.name for f in dataclasses.fields(Snapshot)} - _ADDED_HERE | {"collector_version"},
    "host": {f.name for f in dataclasses.fields(Host)} - {"gpu"},
    "interpreter": {f.name for f in dataclasses.fields(Interpreter)},
}


def run_collector(python: str, verify_hashes: bool = False, cwd: Optional[str] = None) -> Dict[str, Any]:
    """Run collector.py in ``python`` under the supervisor and return its JSON facts.

    The facts come back through a file named on the command line, never through stdout:
    site code (a ``.pth``, ``sitecustomize``) shares stdout and may print or leave daemons
    holding it. dldoctor waits for the process, not for the end of a pipe."""
    config = json.dumps({
        "frameworks": list(framework_table()),
        "known_importers": list(known_importers()),
        "cpu_flags": list(KNOWN_FLAGS),
        "verify_hashes": verify_hashes,
        "secrets": secret_table(),
    })
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    env["PYTHONIOENCODING"] = "utf-8"
    tmp = tempfile.mkdtemp(prefix="dldoctor-collect-")
    try:
        channel = Path(tmp, "facts.json")
        channel.touch()
        run = run_supervised([python, "-c", BOOT, str(channel), config], env=env, cwd=cwd,
                             timeout=TIMEOUT_S, stdin_path=str(COLLECTOR))
        return _facts(python, run, channel)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _facts(python: str, run: Outcome, channel: Path) -> Dict[str, Any]:
    if run.launch_error:
        raise DldoctorError(f"cannot run {python}: {run.launch_error.split(': ', 1)[-1]}")
    if run.parent_killed:
        raise DldoctorError(f"{python} killed the process that ran it ({run.parent_killed}): its start-up code "
                            "(a .pth file or sitecustomize) attacks its parent; no facts collected")
    if run.timed_out:
        raise DldoctorError(f"{python} did not answer within {TIMEOUT_S:.0f} s")
    try:
        with channel.open("rb") as fh:
            raw = fh.read(MAX_FACTS + 1)
    except OSError as exc:
        raise DldoctorError(f"{python}: cannot read the collector's facts ({exc.strerror or exc})") from None
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        last = lines[-1] if lines else f"exit status {run.returncode}"
        raise DldoctorError(f"{python} could not run the collector: {last}")
    if not raw.strip():
        raise DldoctorError(f"{python} is not a Python 3.8+ interpreter (it ran without writing the collector's facts)")
    if len(raw) > MAX_FACTS:
        raise DldoctorError(f"{python}: malformed collector output (more than {MAX_FACTS >> 20} MiB)")
    try:  # the target wrote this file: its nesting and number of values are bounded too
        facts = loads_bounded(raw, str(python), "not JSON")
    except InputError as exc:
        raise DldoctorError(f"{python}: malformed collector output ({exc.reason[:160]})") from None
    if isinstance(facts, dict) and isinstance(facts.get("unsupported_python"), str):
        raise DldoctorError(f"{unsupported(facts['unsupported_python'])}: {python}")
    problem = schema_problem(facts)
    if problem:
        raise DldoctorError(f"{python}: malformed collector output ({problem})")
    return facts  # type: ignore[no-any-return]


def schema_problem(facts: Any) -> Optional[str]:
    """Why collector facts do not fit the snapshot schema (every field, every type), or None."""
    if not isinstance(facts, dict):
        return "not a JSON object"
    for where, names in _REQUIRED.items():
        obj = facts.get(where) if where else facts
        if not isinstance(obj, dict):
            return f"snapshot.{where}: expected an object"
        missing = sorted(names - set(obj))
        if missing:
            return f"snapshot{'.' + where if where else ''}: missing {', '.join(missing)}"
    version = facts["collector_version"]
    if type(version) is not int or version != COLLECTOR_VERSION:
        return f"collector_version {version!r}, expected {COLLECTOR_VERSION}"
    try:
        from_jsonable(Snapshot, _snapshot_data(facts))
    except ValueError as exc:
        return str(exc)
    return None


def _snapshot_data(facts: Dict[str, Any]) -> Dict[str, Any]:
    data = {k: v for k, v in facts.items() if k != "collector_version"}
    data["schema_version"] = SCHEMA_VERSION
    data["dldoctor_version"] = __version__
    data["created"] = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    return data


def _read_header(path: str, dist: Optional[str]) -> Library:
    try:
        from dldoctor.binary import BinaryFormatError, read_binary
    except ImportError:  # readers not available: keep the list, without headers
        return Library(path=path, dist=dist)
    try:
        return Library(path=path, dist=dist, info=read_binary(path).to_dict())
    except (BinaryFormatError, OSError) as exc:
        return Library(path=path, dist=dist, error=str(exc))


def _with_numpy_build(lib: Library) -> Library:
    """Which NumPy C API an extension module (or a Python binding library such as
    libtorch_python.so, compat.toml's numpy_abi.also_scan) was compiled against. Only those
    hold import_array(): the large native libraries (libtorch_cpu, cuDNN) are not read."""
    if lib.error or not lib.dist or canonicalize_name(lib.dist) == "numpy":
        return lib
    name = os.path.basename(lib.path)
    if not any(p.search(name) for p in (*native_data().extension, *numpy_scan_names())):
        return lib
    from dldoctor.binary.numpy_abi import numpy_build

    try:
        return dataclasses.replace(lib, numpy_build=numpy_build(lib.path))
    except OSError:
        return lib


_NATIVE_NAME = re.compile(r"\.(so(\.\d+)*|pyd|dll|dylib)$", re.I)
_SCAN_FILES = 50_000  # files looked at per sys.path entry: a real site-packages has ~10^4-10^5
_SKIP_DIRS = ("__pycache__",)


def native_libraries(snap: Snapshot) -> List[Tuple[str, Optional[str]]]:
    owned = [(os.path.normpath(os.path.join(d.location, rel)), d.name)
             for d in snap.distributions for rel in d.native_libs]
    seen = {p for p, _ in owned}
    return [*owned, *((p, None) for p in unowned_libraries(snap, seen))]


def unowned_libraries(snap: Snapshot, owned: Set[str]) -> List[str]:
    """Native libraries under sys.path entries that no distribution's RECORD lists: packages
    copied in by hand, conda's, ``setup.py develop`` builds. They load like any other, so two
    copies of one SONAME among them conflict as well. The interpreter's own folders (stdlib,
    lib-dynload) are not scanned: they belong to the interpreter, not to an environment; nor
    is the working folder ('' on sys.path: the user's project, with its own venvs in it)."""
    base = os.path.normpath(snap.interpreter.base_prefix or "\0")
    out: List[str] = []
    for entry in dict.fromkeys(snap.interpreter.sys_path):
        entry = os.path.normpath(entry) if entry else ""
        if not entry or not os.path.isdir(entry) or entry == os.path.normpath(snap.interpreter.cwd or "\0") or (
                entry.startswith(base + os.sep) and not entry.endswith(("site-packages", "dist-packages"))):
            continue
        looked = 0
        for folder, dirs, files in os.walk(entry):
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.endswith(".dist-info")
                       and os.path.normpath(os.path.join(folder, d)) not in snap.interpreter.sys_path]
            looked += len(files) + len(dirs)
            if looked > _SCAN_FILES:
                break
            for name in files:
                path = os.path.join(folder, name)
                if _NATIVE_NAME.search(name) and path not in owned and not os.path.islink(path):
                    out.append(path)
    return out


def collect_snapshot(
    python: Optional[str] = None,
    verify_hashes: bool = False,
    with_headers: bool = True,
    cwd: Optional[str] = None,
) -> Snapshot:
    """Everything checks need about ``python`` (default: this interpreter) and its host."""
    exe = resolve_python(python)
    facts = run_collector(exe, verify_hashes, cwd)
    snap = from_jsonable(Snapshot, _snapshot_data(facts))  # validated by run_collector
    with ThreadPoolExecutor(max_workers=4) as pool:
        gpu_f = pool.submit(gpu_mod.collect_gpu, snap.host.os)
        libs: List[Library] = []
        if with_headers:
            libs = list(pool.map(lambda pd: _read_header(*pd), native_libraries(snap)))
            if snap.distribution("numpy") is not None:  # nothing to judge without it
                libs = list(pool.map(_with_numpy_build, libs))
        gpu: Gpu = gpu_f.result()
    host = dataclasses.replace(snap.host, gpu=gpu)
    windows = None
    if sys.platform == "win32" and snap.host.os == "windows":  # registry facts exist only there
        from dldoctor.snapshot.windows_host import collect_here

        windows = collect_here([snap.interpreter.base_prefix])
    loader = None
    if with_headers and snap.host.os == "linux":
        lib_machine = interpreter_machine(snap.host.machine, snap.interpreter.bits)
        lld = tuple(e.path for e in snap.search_path if e.var == "LD_LIBRARY_PATH")
        preload = tuple(snap.env.get("LD_PRELOAD", "").replace(":", " ").split())
        loader = linux_loader_facts(tuple(libs), lld, lib_machine, snap.interpreter.bits, preload)
    return dataclasses.replace(snap, host=host, libraries=tuple(libs), windows=windows, loader=loader)


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
        if isinstance(value, str):  # most strings hold no ~: skip the regex (a fleet reads thousands)
            return _TILDE.sub(lambda _: home, value) if "~" in value else value
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    out: Dict[str, Any] = walk(data)
    return out
