"""``dldoctor probe``: import modules for real in the target interpreter and report.

The probe results become a :class:`~dldoctor.model.Report` (facts: one line per probe;
results: the observed findings) so that the shared renderers print it exactly like
``check`` (DESIGN §7).
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Dict, List

from dldoctor.cli._common import add_format, emit, seconds
from dldoctor.model import CheckResult, Condition, Evidence, Finding, Report, Severity
from dldoctor.probe import DEFAULT_TIMEOUT, probe_findings, run_probes
from dldoctor.probe.model import OK, ImportProbe, ProbeReport
from dldoctor.render import renderer

NAME = "probe"
HELP = "import modules for real in the target interpreter and report what broke"
DESCRIPTION = """\
Import each module (default: the installed frameworks) in a fresh subprocess of the
target interpreter, with a timeout, and report the result, the native libraries that
loaded and the package owning each. --orders also imports every pair in both orders to
find import-order conflicts. A crash or a hang is reported, never fatal.
Exit status: 1 when an import failed or an error was found, else 0.

examples:
  dldoctor probe                         the installed frameworks
  dldoctor probe torch cv2 --orders      torch and cv2, and both orders of the pair
  dldoctor probe 'PyQt5,torch' --libs    one sequence, with its loaded libraries
"""


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help="module to import; A,B imports A then B in one process")
    parser.add_argument("--python", metavar="PY", help="target interpreter (default: this one)")
    parser.add_argument("--orders", action="store_true", help="import every pair in both orders")
    parser.add_argument("--spawn", action="store_true",
                        help="also start a two-worker pool (and DataLoader) with spawn")
    parser.add_argument("--no-gpu", action="store_true", help="skip the NVIDIA driver query")
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds per probe before it is killed (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--libs", action="store_true",
                        help="list each probe's loaded libraries and their owners")
    add_format(parser)


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
                                     f"{gpu.cuda_version or '?'}, {gpu.source}) {devs}".strip()))
    elif gpu.error != "skipped":
        facts.append(Evidence("gpu", gpu.error or "no NVIDIA driver"))
    if report.torch_cuda is not None:
        tc = report.torch_cuda
        facts.append(Evidence("torch.cuda", tc.error or (
            f"available={tc.is_available} devices={tc.device_count} "
            f"arch={' '.join(tc.arch_list) or '-'}")))
    facts += [Evidence(f"spawn {s.what}", "ok" if s.ok else s.error) for s in report.spawn]
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


def run(args: argparse.Namespace) -> int:
    report = run_probes(args.python, args.modules, orders=args.orders, timeout=args.timeout,
                        gpu=not args.no_gpu, spawn=args.spawn)
    findings = probe_findings(report)
    emit(renderer(args.format)(to_report(report, findings, args.libs)))
    failed = any(p.status != OK for p in report.imports) or bool(report.conflicts)
    return 1 if failed or any(f.level >= Severity.ERROR for f in findings) else 0
