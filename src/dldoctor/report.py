"""From a Snapshot to a Report: run the checks and state the facts a reader needs first."""

from __future__ import annotations

from typing import List, Optional, Sequence

from dldoctor.checks import run_checks
from dldoctor.checks.frameworks import cuda_of
from dldoctor.model import Evidence, Report
from dldoctor.snapshot.model import Snapshot


def headline_facts(snap: Snapshot) -> List[Evidence]:
    i, h = snap.interpreter, snap.host
    facts = [
        Evidence("python", f"{i.implementation} {i.version} {i.bits}-bit ({i.env_kind or 'unknown'}) {i.executable}"),
        Evidence("platform", f"{h.os} {h.os_release} {h.machine}" + (f", {h.libc}" if h.libc else "")),
    ]
    for fw in snap.frameworks:
        cuda = cuda_of(fw)
        build = f"CUDA {cuda}" if cuda else ("CPU" if cuda is None else "build unknown")
        facts.append(Evidence(fw.name, f"{fw.version} ({build}) from {fw.dist}"))
    gpu = h.gpu
    if gpu.driver_present:
        devs = ", ".join(d.name for d in gpu.devices) or "device list unavailable"
        facts.append(Evidence("gpu", f"NVIDIA driver {gpu.driver_version or '?'}: {devs}"))
    else:
        facts.append(Evidence("gpu", gpu.source))
    facts.append(Evidence("packages", str(len(snap.distributions))))
    return facts


def build_report(
    snap: Snapshot, select: Sequence[str] = (), ignore: Sequence[str] = ()
) -> Report:
    results = run_checks(snap, select, ignore)
    return Report(
        target=snap.interpreter.executable,
        platform=snap.host.os,
        results=results,
        facts=tuple(headline_facts(snap)),
        errors=tuple(snap.errors),
    )


def diagnose(
    python: Optional[str] = None,
    snapshot: Optional[Snapshot] = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
) -> Report:
    """Check an environment (``python``, default the running one) or a loaded snapshot."""
    if snapshot is None:
        from dldoctor.snapshot.collect import collect_snapshot

        snapshot = collect_snapshot(python)
    return build_report(snapshot, select, ignore)
