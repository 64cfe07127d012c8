"""Checks about the installed frameworks: their build, their release, who imports them."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Set, Tuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from dldoctor.checks import check, finding
from dldoctor.checks._util import parsed_version, pip_of
from dldoctor.conditions.instruction_sets import instruction_requirements
from dldoctor.conditions.releases import dists_of, known_bad_releases, on_machine
from dldoctor.model import Finding
from dldoctor.snapshot.model import Snapshot


def _installed(snap: Snapshot) -> List[Tuple[str, str, str]]:
    """(name, version, installer) of every pip distribution and conda package: a known-bad
    release may be a dependency (MKL) that conda installs without a dist-info."""
    out = [(d.name, d.version, "pip") for d in snap.distributions]
    out += [(name, version, "conda") for name, version in sorted(snap.conda_versions.items())]
    return out


def _check_known_bad(snap: Snapshot, releases: Tuple[Dict[str, Any], ...]) -> Iterator[Finding]:
    installed = _installed(snap)
    names = {canonicalize_name(n) for n, _, _ in installed}
    # this platform's entries, each with the names it covers (its dist and variants)
    here = [({canonicalize_name(d) for d in dists_of(rel)}, rel) for rel in releases
            if snap.host.os in rel["platforms"] and on_machine(rel, snap.host.machine)]
    for name, version, installer in installed:
        for covered, rel in here:
            if canonicalize_name(name) not in covered:
                continue
            if rel.get("with") and not names & {canonicalize_name(w) for w in rel["with"]}:
                continue  # the release breaks only what links it (MKL: torch)
            parsed = parsed_version(version)
            if parsed is not None and SpecifierSet(rel["specifier"]).contains(parsed, prereleases=True):
                cmd = f"conda install {name}={rel['good']}" if installer == "conda" \
                    else f"{pip_of(snap)} install {name}=={rel['good']}"
                yield finding(
                    "known-bad-release",
                    f"{name} {version} on {snap.host.os}: {rel['symptom']}",
                    [("installed", f"{name} {version} ({installer})"), ("known issue", rel["source"])],
                    fix=f"Run `{cmd}`.",
                    snapshot=snap,
                )


@check("known-bad-release")
def known_bad_release(snap: Snapshot) -> Iterator[Finding]:
    yield from _check_known_bad(snap, known_bad_releases())


def _not_macos(snap: Snapshot) -> str:
    return "no CUDA on macOS" if snap.host.os == "macos" else ""


@check("gpu-build-without-gpu", applies=_not_macos)
def gpu_build_without_gpu(snap: Snapshot) -> Iterator[Finding]:
    if snap.host.gpu.driver_present:
        return
    for fw in snap.frameworks:
        cuda = fw.cuda
        if cuda:
            yield finding(
                "gpu-build-without-gpu",
                f"{fw.dist} {fw.version} is a CUDA {cuda} build, but this machine has no NVIDIA driver",
                [(f"{fw.name} CUDA", cuda), ("read from", fw.file or "?"), ("driver", snap.host.gpu.source)],
                snapshot=snap,
            )


@check("cpu-only-build", applies=_not_macos)
def cpu_only_build(snap: Snapshot) -> Iterator[Finding]:
    gpu = snap.host.gpu
    if not gpu.driver_present:
        return
    names = ", ".join(d.name for d in gpu.devices) or "an NVIDIA GPU"
    for fw in snap.frameworks:
        if fw.cuda is None and not fw.values.get("hip"):
            yield finding(
                "cpu-only-build",
                f"{fw.dist} {fw.version} is a CPU-only build, but {names} is present",
                [(f"{fw.name} build", "CPU only"), ("read from", fw.file or "?"),
                 ("driver", gpu.driver_version or "present")],
                snapshot=snap,
            )


def _declares(requires: Tuple[str, ...], names: Set[str]) -> bool:
    """Whether a ``Requires-Dist`` line outside any extra names one of ``names``: such a package
    exists to use the framework (lightning, torchmetrics, torchvision need torch), so importing it
    at import time is its job, not a surprise. A requirement behind ``extra == ...`` is optional."""
    for line in requires:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) in names and (req.marker is None or "extra" not in str(req.marker)):
            return True
    return False


def _named_for(dist: str, names: Set[str]) -> bool:
    """Whether the distribution is named for the framework (torch-geometric, torch-scatter,
    pytorch-metric-learning, tensorflow-addons, paddleocr): a package built on it, which some leave
    undeclared on purpose so that the user picks the framework's build (PyG's install guide:
    install torch first, the CPU or the CUDA one), so importing it is its job as well."""
    name = canonicalize_name(dist)
    return any(name.startswith((n, f"py{n}")) for n in names)


@check("transitive-framework-import")
def transitive_framework_import(snap: Snapshot) -> Iterator[Finding]:
    for d in snap.distributions:
        for imp in d.framework_imports:
            fw = snap.framework(imp.framework)
            names: Set[str] = {canonicalize_name(imp.framework)}
            if fw and fw.dist:
                names.add(canonicalize_name(fw.dist))
            if _declares(d.requires, names) or _named_for(d.name, names):
                continue
            steps: List[Tuple[str, str]] = [(f"step {i + 1}", s) for i, s in enumerate(imp.chain)]
            how = " (inside try: only an ImportError is caught)" if imp.guarded else ""
            module = d.top_level[0] if d.top_level else d.name
            fw_dist = fw.dist if fw and fw.dist else imp.framework
            yield finding(
                "transitive-framework-import",
                f"import {module} imports {imp.framework} at import time{how}",
                [("package", f"{d.name} {d.version}"), *steps],
                fix=(f"{d.name} {d.version} does not require {fw_dist}, yet `import {module}` imports it: "
                     f"pin a release of {d.name} that imports {fw_dist} lazily, import {module} only where "
                     f"{fw_dist} works, or uninstall {fw_dist} if nothing here needs it."),
                snapshot=snap,
            )


def _cpu_facts(snap: Snapshot) -> str:
    unknown = "the CPU's instruction sets were not recorded (not x86, or an older snapshot)"
    return "" if snap.host.cpu_features else unknown


@check("cpu-instructions-unsupported", applies=_cpu_facts)
def cpu_instructions_unsupported(snap: Snapshot) -> Iterator[Finding]:
    """A distribution whose wheels need an x86 extension (AVX) this CPU does not offer: its
    import dies with SIGILL before Python can say why. Only flags the OS answered count."""
    cpu = snap.host.cpu_features
    for req in instruction_requirements():
        for dist in filter(None, map(snap.distribution, req.dists)):
            version = parsed_version(dist.version)
            if version is None or version < req.since:
                continue
            lacking = [flag for flag in req.needs if cpu.get(flag) is False]
            if lacking:
                flags = ", ".join(f.upper().replace("_", ".") for f in lacking)
                yield finding(
                    "cpu-instructions-unsupported",
                    f"{dist.name} {dist.version} is built to use {flags}, which this CPU does not offer: {req.symptom}",
                    [("installed", f"{dist.name} {dist.version}"), ("CPU lacks", flags),
                     ("needs it since", f"{dist.name} {req.since} ({req.source})")],
                    fix=req.fix.replace("{pip}", pip_of(snap)),
                    snapshot=snap,
                )
