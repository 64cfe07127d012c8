"""Requires-Dist as the target's pip sees them (what `pip check` reports).

Markers are evaluated with the marker environment the collector read inside the target
interpreter (a snapshot of a Python 3.8 venv is judged as 3.8, not as dldoctor's Python);
older snapshots without it fall back to what the snapshot says of the interpreter and host.
Like `pip check`, only the first copy of each distribution on sys.path counts (it is the one
imported) and extras are not assumed installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, Iterator, List, Optional, Set, Tuple

from packaging.markers import UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.checks._layers import delegated
from dldoctor.snapshot.model import VIRTUAL_INSTALLER, Distribution, Snapshot

_SYS_PLATFORM = {"windows": "win32", "linux": "linux", "macos": "darwin"}
_SYSTEM = {"windows": "Windows", "linux": "Linux", "macos": "Darwin"}


def marker_environment(snap: Snapshot) -> Dict[str, str]:
    """The target's PEP 508 environment (the collector's, else derived from the snapshot)."""
    if snap.interpreter.markers:
        return dict(snap.interpreter.markers)
    info = snap.interpreter.version_info or (3, 0, 0)
    full = snap.interpreter.version or ".".join(str(p) for p in info[:3])
    impl = snap.interpreter.implementation or "cpython"
    return {
        "implementation_name": impl,
        "implementation_version": full,
        "os_name": "nt" if snap.host.os == "windows" else "posix",
        "platform_machine": snap.host.machine,
        "platform_release": snap.host.os_release,
        "platform_system": _SYSTEM.get(snap.host.os, snap.host.os),
        "platform_version": snap.host.os_version,
        "python_full_version": full,
        "platform_python_implementation": "CPython" if impl == "cpython" else impl.capitalize(),
        "python_version": ".".join(str(p) for p in info[:2]),
        "sys_platform": _SYS_PLATFORM.get(snap.host.os, snap.host.os),
    }


@dataclass(frozen=True)
class Unmet:
    """One requirement of ``dist`` that the environment does not meet."""

    dist: Distribution
    requirement: Requirement
    installed: Optional[Distribution]  # None: not installed at all

    @property
    def name(self) -> str:
        return canonicalize_name(self.requirement.name)

    @property
    def spec(self) -> str:
        """The requirement as pip would take it on a command line: ``tokenizers<0.14,>=0.11.1``."""
        return f"{self.requirement.name}{self.requirement.specifier}"

    def describe(self) -> str:
        have = f"{self.installed.version} is installed" if self.installed else "it is not installed"
        return f"{self.dist.name} {self.dist.version} requires {self.spec}, but {have}"


def imported(snap: Snapshot) -> Iterator[Distribution]:
    """The first copy of each distribution on sys.path: the one Python imports."""
    seen = set()
    for d in snap.distributions:
        key = canonicalize_name(d.name)
        if key not in seen:
            seen.add(key)
            yield d


def fits(version: str, requirement: Requirement) -> bool:
    """Whether ``version`` satisfies the requirement's specifier (pre-releases count, as pip
    check counts them for what is already installed)."""
    try:
        return requirement.specifier.contains(Version(version), prereleases=True)
    except InvalidVersion:
        return True  # a version pip cannot parse: pip check cannot judge it either


def _judged_copies(snap: Snapshot) -> Dict[str, Distribution]:
    """name -> the copy a requirement is judged against: the imported one (the first on
    sys.path), unless a PYTHONPATH or user-site copy wins over the environment's own other
    version. That layer is the cause (pythonpath-pollution / user-site-shadowing name it);
    the environment's copy is what the requirement meets once it is gone."""
    first: Dict[str, Distribution] = {canonicalize_name(d.name): d for d in reversed(snap.distributions)}
    own: Dict[str, Distribution] = {canonicalize_name(d.name): d for d in reversed(snap.distributions)
                                    if not delegated(snap, d.location)}
    out = dict(first)
    for key, have in first.items():
        mine = own.get(key)
        if mine is not None and delegated(snap, have.location) and mine.version != have.version:
            out[key] = mine
    return out


@lru_cache(maxsize=8192)
def parse(text: str) -> Optional[Requirement]:
    """One Requires-Dist line (None when pip could not parse it either)."""
    try:
        return Requirement(text)
    except (InvalidRequirement, ValueError):
        return None


# The checks of one snapshot ask the same question several times (requirement-conflict,
# companion-mismatch, numpy-abi-mismatch, missing-shared-library): answer it once.
_LAST: List[Tuple[Snapshot, Tuple[Unmet, ...]]] = []


def unmet_requirements(snap: Snapshot) -> Iterator[Unmet]:
    """Every requirement of an installed distribution that is missing or excluded."""
    if not (_LAST and _LAST[0][0] is snap):
        _LAST[:] = [(snap, tuple(_unmet(snap)))]
    return iter(_LAST[0][1])


def _unmet(snap: Snapshot) -> Iterator[Unmet]:
    env = marker_environment(snap)
    env["extra"] = ""
    installed = _judged_copies(snap)
    for dist in imported(snap):
        for text in dist.requires:
            req = parse(text)
            if req is None:
                continue
            try:
                if req.marker is not None and not req.marker.evaluate(env):
                    continue
            except (UndefinedEnvironmentName, ValueError, TypeError, AttributeError):  # a malformed snapshot
                continue
            have = installed.get(canonicalize_name(req.name))
            if have is None and dist.installer == VIRTUAL_INSTALLER:
                continue  # a wheel set is a plan: pip fetches what it leaves out; only versions in it can conflict
            if have is None or not fits(have.version, req):
                yield Unmet(dist, req, have)


def import_name(dist: Distribution) -> str:
    """The module ``import`` names for a distribution: its first public top-level name."""
    own = canonicalize_name(dist.name).replace("-", "_")
    if own in dist.top_level:
        return own
    public = [t for t in dist.top_level if t and not t.startswith("_")]
    return public[0] if public else own


def required_closure(snap: Snapshot, dist: str) -> Set[str]:
    """Canonical names of what ``dist`` requires (Requires-Dist outside extras), transitively,
    installed or not: the packages whose imports run before its own modules load."""
    key = canonicalize_name(dist)
    required: Set[str] = set()
    todo = [key]
    while todo:
        d = snap.distribution(todo.pop())
        for line in d.requires if d is not None else ():
            req = parse(line)
            if req is None or (req.marker is not None and "extra" in str(req.marker)):
                continue
            name = canonicalize_name(req.name)
            if name not in required and name != key:
                required.add(name)
                todo.append(name)
    return required
