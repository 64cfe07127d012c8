"""A ProbeReport as a :class:`~dldoctor.model.Report` (facts: one line per probe; results: the
observed findings), so that `dldoctor probe` is printed by the same renderers as `check`."""

from __future__ import annotations

from collections import Counter
from typing import Dict, List

from dldoctor.model import CheckResult, Condition, Evidence, Finding, Report
from dldoctor.probe.model import ImportProbe, ProbeReport


def _owners(p: ImportProbe) -> str:
    counts = Counter(lib.owner or "system" for lib in p.loaded if not lib.baseline)
    return ", ".join(f"{k} {v}" for k, v in counts.most_common())


def probe_facts(report: ProbeReport, libs: bool = False) -> List[Evidence]:
    """One fact per probe (and per loaded library with ``libs``), for the report header."""
    facts: List[Evidence] = []
    for kind, probes in (("import", report.imports), ("order", report.pairs)):
        for p in probes:
            new = [lib for lib in p.loaded if not lib.baseline]
            value = (f"ok in {p.seconds:.2f} s; {len(new)} libraries loaded ({_owners(p)})"
                     if p.ok else p.summary())
            facts.append(Evidence(f"{kind} {p.label}", value))
            if libs:
                new.sort(key=lambda lib: (lib.owner in (None, "python"), lib.owner or "",
                                          lib.path))
                facts += [Evidence(f"  {lib.owner or 'system'}", lib.path) for lib in new]
    gpu = report.gpu
    if gpu.driver_present:
        devs = "; ".join(f"{d.index}: {d.name}" + (f" sm_{d.capability[0]}{d.capability[1]}"
                                                    if d.capability else "")
                         for d in gpu.devices)
        facts.append(Evidence("gpu", f"driver {gpu.driver_version} (CUDA "
                                     f"{gpu.cuda_driver_version or '?'}, {gpu.source}) {devs}".strip()))
    elif gpu.error != "skipped":
        facts.append(Evidence("gpu", gpu.error or "no NVIDIA driver"))
    if report.torch_cuda is not None:
        tc = report.torch_cuda
        facts.append(Evidence("torch.cuda", tc.error or (
            f"available={tc.is_available} devices={tc.device_count} "
            f"arch={' '.join(tc.arch_list) or '-'}")))
    facts += [Evidence(f"spawn {s.what}", "ok" if s.ok else s.error) for s in report.spawn]
    facts += [Evidence(f"onnxruntime {p.name}", "loaded in a session" if p.loaded
                       else "did not load: sessions fall back to CPUExecutionProvider") for p in report.ort]
    return facts


def to_report(report: ProbeReport, findings: List[Finding], libs: bool = False) -> Report:
    by_cond: Dict[str, List[Finding]] = {}
    conds: Dict[str, Condition] = {}
    for f in findings:
        by_cond.setdefault(f.condition.code, []).append(f)
        conds[f.condition.code] = f.condition
    results = tuple(CheckResult(conds[code], tuple(fs)) for code, fs in sorted(by_cond.items()))
    return Report(target=report.python, platform=report.platform, results=results,
                  facts=tuple(probe_facts(report, libs)), errors=report.errors)
