"""Checks about the installed frameworks: their build, their release, who imports them."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Iterator, List, Optional, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from dldoctor.checks import check, finding
from dldoctor.checks._util import canonical
from dldoctor.conditions import DataError, load_toml
from dldoctor.model import Finding
from dldoctor.snapshot.model import Framework, Snapshot


@lru_cache(maxsize=1)
def known_bad_releases() -> Tuple[Dict[str, Any], ...]:
    """known_versions.toml, validated: every entry needs a specifier, platforms and a source."""
    data = load_toml("known_versions.toml")
    out = []
    for raw in data.get("release", []):
        for key in ("dist", "specifier", "platforms", "symptom", "good", "source"):
            if key not in raw:
                raise DataError(f"known_versions.toml: entry {raw.get('dist')} lacks {key!r}")
        try:
            SpecifierSet(raw["specifier"])
        except InvalidSpecifier as exc:
            raise DataError(f"known_versions.toml: {exc}") from None
        if not str(raw["source"]).startswith("https://"):
            raise DataError("known_versions.toml: source must be an https URL")
        out.append(dict(raw))
    return tuple(out)


@lru_cache(maxsize=1)
def cuda_keys() -> Dict[str, str]:
    return {f["name"]: f.get("cuda_key", "") for f in load_toml("frameworks.toml")["framework"]}


def cuda_of(fw: Framework) -> Optional[str]:
    """The CUDA version a framework was built for, None for a CPU build, "" if unknown."""
    if fw.file is None:
        return ""
    key = cuda_keys().get(fw.name, "")
    if fw.name == "onnxruntime" and "gpu" not in str(fw.values.get("package_name", "")):
        return None
    if fw.name == "tensorflow" and fw.values.get("is_cuda_build") is False:
        return None
    if not key:
        return ""
    value = fw.values.get(key)
    if value in (None, False, "False", "", "None", "OFF"):
        return None
    return str(value)


def _check_known_bad(snap: Snapshot, releases: Tuple[Dict[str, Any], ...]) -> Iterator[Finding]:
    for d in snap.distributions:
        for rel in releases:
            if canonical(d.name) != canonical(rel["dist"]) or snap.host.os not in rel["platforms"]:
                continue
            try:
                hit = SpecifierSet(rel["specifier"]).contains(Version(d.version), prereleases=True)
            except InvalidVersion:
                continue
            if hit:
                yield finding(
                    "known-bad-release",
                    f"{d.name} {d.version} on {snap.host.os}: {rel['symptom']}",
                    [("installed", f"{d.name} {d.version}"), ("known issue", rel["source"])],
                    fix=f"python -m pip install {d.name}=={rel['good']}",
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
        cuda = cuda_of(fw)
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
        if cuda_of(fw) is None and not fw.values.get("hip"):
            yield finding(
                "cpu-only-build",
                f"{fw.dist} {fw.version} is a CPU-only build, but {names} is present",
                [(f"{fw.name} build", "CPU only"), ("read from", fw.file or "?"),
                 ("driver", gpu.driver_version or "present")],
                snapshot=snap,
            )


@check("transitive-framework-import")
def transitive_framework_import(snap: Snapshot) -> Iterator[Finding]:
    for d in snap.distributions:
        for imp in d.framework_imports:
            steps: List[Tuple[str, str]] = [(f"step {i + 1}", s) for i, s in enumerate(imp.chain)]
            how = " (inside try: only an ImportError is caught)" if imp.guarded else ""
            yield finding(
                "transitive-framework-import",
                f"import {d.top_level[0] if d.top_level else d.name} imports {imp.framework} at import time{how}",
                [("package", f"{d.name} {d.version}"), *steps],
                snapshot=snap,
            )
