"""LD_PRELOAD (Linux): ld.so maps the preloaded objects before the program's own DT_NEEDED
libraries, and a later request for the same SONAME reuses the loaded object instead of
searching (ld.so(8)). A preloaded libstdc++ therefore answers every extension's libstdc++.so.6,
whatever RPATH, RUNPATH or LD_LIBRARY_PATH say; when it lacks a symbol version they need, the
import fails with "version `GLIBCXX_3.4.N' not found". Found from header facts alone: each
needer's version requirements (DT_VERNEED) against the preloaded object's definitions."""

from __future__ import annotations

from typing import Dict, Iterator, List, Sequence, Tuple

from dldoctor.checks import check, finding
from dldoctor.model import Finding
from dldoctor.snapshot.model import Library, Snapshot

_RUNTIME_PREFIXES = ("libstdc++.so", "libgcc_s.so", "libc.so", "libm.so")  # glibcxx-too-old's


def preload_fix(entries: Sequence[str], culprit: str) -> str:
    """The command that takes ``culprit`` out of LD_PRELOAD and keeps the other entries."""
    keep = [e for e in entries if e != culprit]
    cmd = f"export LD_PRELOAD={':'.join(keep)}" if keep else "unset LD_PRELOAD"
    return (f"Run `{cmd}` in this shell (and remove {culprit} from LD_PRELOAD where it is set: "
            "~/.bashrc, a module file, a launcher script), then import again.")


def _not_linux(snap: Snapshot) -> str:
    return "" if snap.host.os == "linux" and snap.loader is not None else "no Linux loader facts"


def _unmet(pre: Library, needers: Sequence[Library]) -> Tuple[str, Dict[str, List[str]]]:
    """(the name it answers, version -> needers) for the versions ``pre`` does not define."""
    info = pre.info or {}
    name = info.get("soname") or pre.path.rsplit("/", 1)[-1]
    defined = set(info.get("version_defs") or ())
    missing: Dict[str, List[str]] = {}
    for lib in needers:
        linfo = lib.info or {}
        if name not in (linfo.get("needed") or ()):
            continue
        for file_, version in linfo.get("version_needs") or ():
            if file_ == name and version not in defined:
                missing.setdefault(version, []).append(lib.path)
    return name, missing


@check("glibcxx-too-old", applies=_not_linux)
def preloaded_runtime_too_old(snap: Snapshot) -> Iterator[Finding]:
    yield from _preload_findings(snap, runtime=True)


@check("symbol-mismatch", applies=_not_linux)
def preloaded_library_lacks_versions(snap: Snapshot) -> Iterator[Finding]:
    yield from _preload_findings(snap, runtime=False)


def _preload_findings(snap: Snapshot, runtime: bool) -> Iterator[Finding]:
    facts = snap.loader
    if facts is None:
        return
    entries = snap.env.get("LD_PRELOAD", "").replace(":", " ").split()
    needers = [*snap.libraries, *facts.outside]
    for pre in facts.preload:
        name, missing = _unmet(pre, needers)
        if not missing or name.startswith(_RUNTIME_PREFIXES) != runtime:
            continue
        versions = sorted(missing, key=lambda v: [int(x) if x.isdigit() else 0 for x in v.replace("_", ".").split(".")])
        first = missing[versions[-1]][0]
        slug = "glibcxx-too-old" if runtime else "symbol-mismatch"
        yield finding(
            slug,
            f"LD_PRELOAD loads {pre.path} before every other library, so it answers {name} for all of them; "
            f"it lacks {', '.join(versions[-3:])} that {first.rsplit('/', 1)[-1]} needs",
            [("LD_PRELOAD", snap.env.get("LD_PRELOAD", "")),
             ("precedence", "preloaded objects load before DT_NEEDED; a later request for the same SONAME "
                            "reuses them (RPATH, RUNPATH and LD_LIBRARY_PATH are not searched)"),
             *((f"needs {v}", missing[v][0]) for v in versions[-3:])],
            fix=preload_fix(entries, next((e for e in entries if e == pre.path), pre.path)),
            snapshot=snap,
        )
