"""Checks about how distributions are installed: twice, or damaged."""

from __future__ import annotations

from typing import Dict, Iterator, List

from packaging.utils import canonicalize_name

from dldoctor.checks import check, finding
from dldoctor.conditions.frameworks import conda_names
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Distribution, Snapshot


@check("duplicate-install")
def duplicate_install(snap: Snapshot) -> Iterator[Finding]:
    groups: Dict[str, List[Distribution]] = {}
    for d in snap.distributions:
        groups.setdefault(canonicalize_name(d.name), []).append(d)
    for dists in groups.values():
        editable = {d.version for d in dists if d.editable}
        # An editable install's build leaves NAME.egg-info in the source folder it puts on
        # sys.path: same version, same code, one install.
        dists = [d for d in dists if not (d.kind == "egg-info" and d.version in editable)]
        if len(dists) > 1:
            first = dists[0]
            yield finding(
                "duplicate-install",
                f"{first.name} is installed {len(dists)} times: "
                + ", ".join(d.version or "?" for d in dists) + f" (the first, {first.version}, is imported)",
                [(f"copy {i + 1}", f"{d.version} at {d.metadata_dir}") for i, d in enumerate(dists)],
                fix=f"Run `python -m pip uninstall {first.name}` until none is left, then install one version.",
                snapshot=snap,
            )
    conda = set(snap.conda_packages)
    if not conda:
        return
    aliases = conda_names()
    for d in snap.distributions:
        if d.installer.strip().lower() != "pip":
            continue
        names = {canonicalize_name(d.name), *aliases.get(canonicalize_name(d.name), [])}
        hit = sorted(names & conda)
        if hit:
            yield finding(
                "duplicate-install",
                f"pip installed {d.name} {d.version} over conda's {hit[0]}",
                [("pip copy", d.metadata_dir), ("conda package", hit[0])],
                fix=f"Keep one: `conda remove {hit[0]}` and keep pip's, or `pip uninstall {d.name}` "
                f"then `conda install {hit[0]}` again.",
                snapshot=snap,
                severity=Severity.WARNING,
            )


@check("corrupt-install")
def corrupt_install(snap: Snapshot) -> Iterator[Finding]:
    for d in snap.distributions:
        rec = d.record
        if rec is not None and rec.problems:
            parts = []
            if rec.missing:
                parts.append(f"{rec.missing} missing")
            if rec.wrong_size:
                parts.append(f"{rec.wrong_size} of wrong size")
            if rec.wrong_hash:
                parts.append(f"{rec.wrong_hash} with wrong content")
            yield finding(
                "corrupt-install",
                f"{d.name} {d.version}: {', '.join(parts)} of {rec.files} files in RECORD",
                [("RECORD", f"{d.metadata_dir}"), *(("file", e) for e in rec.examples)],
                fix=f"python -m pip install --force-reinstall --no-deps --no-cache-dir {d.name}=={d.version}",
                snapshot=snap,
            )
        elif d.problem and d.problem != "RECORD missing":
            yield finding(
                "corrupt-install",
                f"{d.metadata_dir}: {d.problem}",
                [("metadata", d.metadata_dir)],
                snapshot=snap,
                severity=Severity.WARNING,
            )
