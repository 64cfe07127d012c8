"""The report of `dldoctor wheels`: every snapshot check run on the virtual install, plus what
the import simulation found (which answers for its own slugs), as one Report value."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from dldoctor import conditions
from dldoctor.model import CheckResult, Evidence, Finding, Report
from dldoctor.report import build_report
from dldoctor.snapshot.model import Snapshot
from dldoctor.wheelset.findings import SLUGS, all_findings
from dldoctor.wheelset.imports import analyse
from dldoctor.wheelset.install import VirtualInstall


def wheels_report(
    vi: VirtualInstall,
    snap: Snapshot,
    order: Optional[Sequence[str]],
    select: Sequence[str],
    ignore: Sequence[str],
    platform: str,
    python_version: str,
    vc_redist: Optional[str],
) -> Report:
    """``select`` / ``ignore``: slugs (already resolved from codes)."""
    analysis = analyse(vi, order)
    base = build_report(snap, select, tuple(ignore) + SLUGS)
    extra: Dict[str, List[Finding]] = {}
    for f in all_findings(vi, analysis, snap):
        if (not select or f.condition.slug in select) and f.condition.slug not in ignore:
            extra.setdefault(f.condition.slug, []).append(f)
    results = [CheckResult(r.condition, r.findings + tuple(extra.pop(r.condition.slug, ())), r.skipped)
               for r in base.results]
    results += [CheckResult(conditions.get(slug), tuple(fs)) for slug, fs in extra.items()]
    for slug in SLUGS:
        if slug not in {r.condition.slug for r in results} and (not select or slug in select) and slug not in ignore:
            results.append(CheckResult(conditions.get(slug), ()))
    results.sort(key=lambda r: r.condition.code)
    facts = (
        Evidence("wheels", ", ".join(f"{w.name} {w.version}" for w in vi.wheels)),
        Evidence("target", f"{_title(vi.profile.title, vc_redist)}; CPython {python_version} venv; "
                 f"VC++ redistributable {vc_redist or 'not installed'}"),
        *base.facts[2:],
    )
    return Report(target=f"{len(vi.wheels)} wheel(s) for {platform}", platform="windows",
                  results=tuple(results), facts=facts, errors=base.errors)


def _title(title: str, vc_redist: Optional[str]) -> str:
    """The stock machine's title, less its "no Visual C++ Redistributable" once one is given."""
    return title.replace("no Visual C++ Redistributable, ", "") if vc_redist else title
