"""Import probes and order probes: turn child runs into ImportProbe values, and compare.

The order probe's reasoning follows the loader (DESIGN §6): on Linux a library whose SONAME
is already in the process is reused, on Windows a DLL whose base name is already loaded is
reused. So when ``A,B`` fails and ``B,A`` works, the culprit is a library that both orders
loaded under one name but from different files: the copy A brought in first won in the
failing order.
"""

from __future__ import annotations

import itertools
import re
import signal
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from dldoctor.conditions.probe import probe_data
from dldoctor.interpreter import unsupported
from dldoctor.probe.model import (
    BROKEN,
    CRASH,
    ERROR,
    KILLED_PARENT,
    OK,
    TIMEOUT,
    ImportProbe,
    LoadedLibrary,
    ModuleFacts,
    OrderConflict,
)
from dldoctor.probe.owners import OwnerIndex
from dldoctor.probe.runner import ChildRun

_FRAME = re.compile(  # a traceback frame inside a framework package's __init__
    r'File "[^"]*[/\\](' + "|".join(map(re.escape, probe_data().frameworks)) +
    r')[/\\]__init__\.py"')
_HASH = re.compile(r"-[0-9a-f]{8,}(?=\.)")
_SO_MINOR = re.compile(r"(\.so\.\d+)(\.\d+)+$")


def load_key(path: str) -> str:
    """The name the loader matches a request on: base name, case-folded, an ELF file name cut
    to its usual SONAME; an auditwheel hash kept (it is part of the name the request asks for)."""
    base = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return _SO_MINOR.sub(r"\1", base)


def library_key(path: str) -> str:
    """The name the loader matches on: base name, case-folded, auditwheel hash removed, and
    an ELF file name cut to its usual SONAME (``libgomp.so.1.0.0`` -> ``libgomp.so.1``).

    ``libgomp-a34b3233.so.1`` and ``libgomp.so.1`` are one library to the user even if the
    loader sees two SONAMEs; that is exactly the duplicate we want to notice.
    """
    return load_key(_HASH.sub("", path.replace("\\", "/").rsplit("/", 1)[-1]))


def describe_exit(returncode: Optional[int], platform: str) -> str:
    """A readable exit: POSIX signal name, Windows NTSTATUS in hex, or the exit status."""
    if returncode is None:
        return "no exit status"
    if returncode < 0 and platform != "windows":
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "signal"
        return f"{name} (signal {-returncode})"
    code = returncode & 0xFFFFFFFF
    if platform == "windows" and code >= 0xC0000000:
        name = probe_data().ntstatus.get(code, "NTSTATUS")
        return f"0x{code:08X} {name}"
    return f"exit {returncode}"


def _facts(raw: Any, name: str) -> ModuleFacts:
    data = raw if isinstance(raw, dict) else {}

    def text(key: str) -> Optional[str]:
        value = data.get(key)
        return value if isinstance(value, str) else None

    return ModuleFacts(name, text("file"), text("version"), text("cuda"), text("hip"))


def unsupported_python(run: ChildRun) -> Optional[str]:
    """The version an interpreter too old for the child reported ("2.7.18"), if it did."""
    for ev in run.events:
        if ev.get("event") == "unsupported":
            return str(ev.get("python", "?"))
    return None


def import_probe_from_run(modules: Sequence[str], run: ChildRun, owners: OwnerIndex,
                          platform: str) -> ImportProbe:
    """Classify one child run: ok, error (exception), crash, timeout, or broken probe."""
    mods = tuple(modules)
    if run.launch_error:
        return ImportProbe(mods, BROKEN, message=run.launch_error)
    too_old = unsupported_python(run)
    if too_old:
        return ImportProbe(mods, BROKEN, message=unsupported(too_old))
    by_kind: Dict[str, List[Dict[str, Any]]] = {}
    for ev in run.events:
        by_kind.setdefault(str(ev["event"]), []).append(ev)
    start = (by_kind.get("start") or [{}])[0]
    baseline = set(p for p in start.get("baseline", []) if isinstance(p, str))
    paths: List[str] = []
    for ev in by_kind.get("loaded", []):
        paths = [p for p in ev.get("libraries", []) if isinstance(p, str)]
    if not paths and run.maps_at_kill:
        paths = list(run.maps_at_kill)
    loaded = tuple(LoadedLibrary(p, owners.owner(p), p in baseline) for p in paths)
    facts = tuple(_facts(ev.get("facts"), str(ev.get("module")))
                  for ev in by_kind.get("imported", []))
    importing = by_kind.get("importing", [])
    current = str(importing[-1]["module"]) if importing else None
    seen_fw = [m for ev in by_kind.get("frameworks", []) for m in ev.get("modules", [])
               if isinstance(m, str)]
    for ev in by_kind.get("error", []):
        seen_fw += _FRAME.findall(str(ev.get("traceback", "")))
    common: Dict[str, Any] = {"loaded": loaded, "facts": facts, "seconds": run.seconds,
                              "returncode": run.returncode, "stderr_tail": run.stderr_tail,
                              "frameworks": tuple(dict.fromkeys(seen_fw))}
    if run.parent_killed:
        # The patient reached for dldoctor (os.kill(os.getppid(), ...)) and hit the supervisor.
        return ImportProbe(mods, KILLED_PARENT, failed_module=current, exit=run.parent_killed, **common)
    if run.timed_out:
        return ImportProbe(mods, TIMEOUT, failed_module=current, exit="killed after timeout",
                           **common)
    errors = by_kind.get("error", [])
    if errors:
        err = errors[0]
        return ImportProbe(mods, ERROR, failed_module=err.get("module") or current,
                           exc_type=str(err.get("type", "")), message=str(err.get("message", "")),
                           traceback=str(err.get("traceback", "")), **common)
    if "done" in by_kind and run.returncode == 0:
        return ImportProbe(mods, OK, **common)
    if not run.events and run.returncode not in (None, 0) and run.returncode > 0:
        # The interpreter never ran our script: not a Python, or it refused to start.
        return ImportProbe(mods, BROKEN, message=run.stderr_tail.strip()[-300:]
                           or describe_exit(run.returncode, platform), **common)
    return ImportProbe(mods, CRASH, failed_module=current,
                       exit=describe_exit(run.returncode, platform), **common)


def order_pairs(modules: Sequence[str]) -> List[Tuple[str, str]]:
    """Every ordered pair of distinct modules (both orders of each combination)."""
    out: List[Tuple[str, str]] = []
    for a, b in itertools.combinations(dict.fromkeys(modules), 2):
        out += [(a, b), (b, a)]
    return out


def order_candidates(installed: Iterable[str]) -> List[str]:
    """The frameworks and troublemakers from probe.toml that are installed, in table order."""
    have = set(installed)
    data = probe_data()
    return [m for m in (*data.frameworks, *data.troublemakers) if m in have]


def _culprit(failing: ImportProbe, working: ImportProbe
             ) -> Tuple[Optional[LoadedLibrary], Optional[LoadedLibrary]]:
    """The library loaded under one name from different files in the two orders."""
    other: Dict[str, LoadedLibrary] = {}
    for lib in working.loaded:
        other.setdefault(library_key(lib.path), lib)
    message = failing.message + failing.traceback
    best: Tuple[Optional[LoadedLibrary], Optional[LoadedLibrary]] = (None, None)
    for lib in failing.loaded:
        rival = other.get(library_key(lib.path))
        if rival is None or rival.path == lib.path or lib.baseline:
            continue
        if best[0] is None:
            best = (lib, rival)
        if lib.name in message or rival.name in message:
            return lib, rival
    return best


def find_conflicts(pairs: Sequence[ImportProbe]) -> List[OrderConflict]:
    """Pairs that work in one order and fail in the other (hangs and crashes count as fails)."""
    by_order = {p.modules: p for p in pairs if len(p.modules) == 2}
    out: List[OrderConflict] = []
    for (a, b), probe in by_order.items():
        reverse = by_order.get((b, a))
        if reverse is None or probe.ok or not reverse.ok or probe.status == BROKEN:
            continue
        culprit, rival = _culprit(probe, reverse)
        out.append(OrderConflict((b, a), probe, culprit, rival))
    return out


__all__ = ["CRASH", "ERROR", "OK", "TIMEOUT", "describe_exit", "find_conflicts",
           "import_probe_from_run", "library_key", "load_key", "order_candidates", "order_pairs"]
