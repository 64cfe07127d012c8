"""torch's satellites (torchvision, torchaudio, torchtext) judged against the installed torch:
the release their Requires-Dist pins, and the build variant their native part was linked for.

A satellite's native part links libc10 / libtorch of one torch build; a CUDA build also links
libtorch_cuda.so and the CUDA runtime (libcudart.so.12). On a CPU torch, or a torch of another
CUDA major, those names resolve nowhere: the dozen "missing" libraries the loader model finds
are this one cause, so missing-shared-library leaves the satellite's files to
companion-mismatch (:func:`explained_dists`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.checks._requirements import Unmet, parse, unmet_requirements
from dldoctor.conditions.compat import release_for, satellites, variant
from dldoctor.model import Severity
from dldoctor.snapshot.model import Distribution, Snapshot


@dataclass(frozen=True)
class Build:
    """What a satellite's libraries say about the torch build they were linked for."""

    cuda: bool  # needs torch's CUDA libraries
    cuda_major: Optional[int]  # from the CUDA runtime it needs, if any
    needed: Tuple[str, ...]  # the torch / CUDA names that show it
    links_torch: bool = False  # needs libc10 / libtorch_cpu (a native satellite)

    def describe(self) -> str:
        if not self.cuda:
            return "a CPU build"
        return f"a CUDA {self.cuda_major} build" if self.cuda_major else "a CUDA build"


@dataclass(frozen=True)
class Problem:
    """One satellite that does not fit the installed framework."""

    dist: Distribution
    framework: Distribution
    pin: Optional[Requirement]  # its Requires-Dist on the framework, when that is unmet
    table_torch: Optional[str]  # the framework release it was published with (compat.toml)
    build: Optional[Build]
    variant_text: str  # "" when the variant fits
    severity: Severity
    stale: bool = False  # no pin, but the table says it was published with another release


def public_version(version: str) -> str:
    """2.13.0+cpu -> 2.13.0 (as given when it does not parse)."""
    try:
        return Version(version).public
    except InvalidVersion:
        return version


def _local(version: str) -> str:
    try:
        return Version(version).local or ""
    except InvalidVersion:
        return ""


def satellite_build(snap: Snapshot, dist: Distribution) -> Optional[Build]:
    """The build variant a satellite's native libraries were linked for (None: no headers)."""
    want = canonicalize_name(dist.name)
    data = variant()
    cuda_libs = {n.lower() for n in data.cuda_libraries}
    names: List[str] = []
    majors: List[int] = []
    seen = links = False
    for lib in snap.libraries:
        if not lib.dist or canonicalize_name(lib.dist) != want or not lib.info:
            continue
        seen = True
        for name in lib.info.get("needed", []) or []:
            links = links or any(p.match(str(name)) for p in data.torch_libraries)
            major = data.cuda_major(str(name))
            if major is not None:
                majors.append(major)
                names.append(str(name))
            elif str(name).lower() in cuda_libs:
                names.append(str(name))
    if not seen:
        return None
    needed = tuple(dict.fromkeys(names))
    return Build(cuda=bool(needed), cuda_major=max(majors) if majors else None, needed=needed, links_torch=links)


def _variant_text(build: Optional[Build], torch_version: str, torch_cuda: Optional[str]) -> Tuple[str, Severity]:
    """Why the variant does not fit ("" if it does), and how bad that is."""
    if build is None or torch_cuda == "":
        return "", Severity.INFO
    if build.cuda and torch_cuda is None:
        return f"it is {build.describe()}, torch {torch_version} is the CPU build", Severity.ERROR
    if not build.cuda and build.links_torch and torch_cuda:
        return (f"it is a CPU build, torch {torch_version} is built for CUDA {torch_cuda}: its operators "
                "fail on CUDA tensors", Severity.WARNING)
    if build.cuda and build.cuda_major and torch_cuda:
        try:
            torch_major = int(torch_cuda.split(".")[0])
        except ValueError:
            return "", Severity.INFO
        if torch_major != build.cuda_major:
            return f"it is {build.describe()}, torch {torch_version} is built for CUDA {torch_cuda}", Severity.ERROR
    return "", Severity.INFO


def problems(snap: Snapshot) -> Iterator[Problem]:
    """Every satellite whose release or variant does not fit the installed framework."""
    unmet: Dict[str, Unmet] = {}
    for u in unmet_requirements(snap):
        row = satellites().get(canonicalize_name(u.dist.name))
        if row is not None and canonicalize_name(row["framework"]) == u.name:
            unmet[canonicalize_name(u.dist.name)] = u
    for key, row in satellites().items():
        dist = snap.distribution(key)
        framework = snap.distribution(row["framework"])
        if dist is None or framework is None:
            continue
        pinned = unmet.get(key)
        published = release_for(key, dist.version)
        table_torch = published.get(canonicalize_name(row["framework"])) if published else None
        pins = any(r is not None and canonicalize_name(r.name) == row["framework"] for r in map(parse, dist.requires))
        by_table = (not pins and table_torch is not None
                    and public_version(table_torch) != public_version(framework.version))
        stale = pinned is not None or by_table
        fw = snap.framework(row["framework"])
        build = satellite_build(snap, dist)
        text, severity = _variant_text(build, framework.version, fw.cuda if fw else "")
        if not stale and not text:
            continue
        yield Problem(dist, framework, pinned.requirement if pinned else None, table_torch, build, text,
                      Severity.ERROR if stale else severity, by_table)


def explained_dists(snap: Snapshot) -> Tuple[str, ...]:
    """Canonical names of satellites whose native load failures companion-mismatch states."""
    return tuple(canonicalize_name(p.dist.name) for p in problems(snap))


def fitting(snap: Snapshot, p: Problem) -> Optional[str]:
    """The satellite release published with the installed framework, if the table knows it."""
    row = release_for(p.framework.name, p.framework.version)
    return row.get(canonicalize_name(p.dist.name)) if row else None


def index_for(framework_version: str) -> str:
    """The wheel index of the installed framework's variant, from its local label (+cpu,
    +cu121); "" for a build from PyPI, whose satellites come from PyPI too."""
    label = _local(framework_version)
    return variant().index.format(variant=label) if label else ""
