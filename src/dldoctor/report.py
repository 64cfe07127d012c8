"""From a Snapshot to a Report: run the checks and state the facts a reader needs first."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from dldoctor.checks import resolve_selection, run_checks
from dldoctor.model import CheckResult, Evidence, Finding, Report
from dldoctor.snapshot.model import Snapshot


def headline_facts(snap: Snapshot) -> List[Evidence]:
    i, h = snap.interpreter, snap.host
    facts = [
        Evidence("python", f"{i.implementation} {i.version} {i.bits}-bit ({i.env_kind or 'unknown'}) {i.executable}"),
        Evidence("platform", f"{h.os} {h.os_release} {h.machine}" + (f", {h.libc}" if h.libc else "")),
    ]
    for fw in snap.frameworks:
        cuda = fw.cuda
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


def merge_observed(
    results: Sequence[CheckResult], observed: Sequence[Finding], select: Sequence[str], ignore: Sequence[str]
) -> Tuple[CheckResult, ...]:
    """Add what probes saw to the static results, under the same condition (observed=True)."""
    sel, ign = set(resolve_selection(select)), set(resolve_selection(ignore))
    by_slug: Dict[str, CheckResult] = {r.condition.slug: r for r in results}
    for f in observed:
        slug = f.condition.slug
        if (sel and slug not in sel) or slug in ign:
            continue
        old = by_slug.get(slug, CheckResult(f.condition, ()))
        by_slug[slug] = CheckResult(f.condition, (*old.findings, f))
    return tuple(sorted(by_slug.values(), key=lambda r: r.condition.code))


def build_report(
    snap: Snapshot,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    observed: Sequence[Finding] = (),
    errors: Sequence[str] = (),
) -> Report:
    results = merge_observed(run_checks(snap, select, ignore), observed, select, ignore)
    return Report(
        target=snap.interpreter.executable,
        platform=snap.host.os,
        results=results,
        facts=tuple(headline_facts(snap)),
        errors=(*snap.errors, *errors),
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
