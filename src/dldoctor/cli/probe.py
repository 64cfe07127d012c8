"""``dldoctor probe``: import modules for real in the target interpreter and report.

The text/JSON rendering here is a stand-in until the shared renderers (dldoctor.render)
are on main; findings carry the same keys as ``check`` (DESIGN §7).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List

from dldoctor.errors import DldoctorError
from dldoctor.model import Finding, Severity
from dldoctor.probe import DEFAULT_TIMEOUT, probe_findings, run_probes
from dldoctor.probe.model import OK, ImportProbe, ProbeReport

NAME = "probe"
HELP = "import modules for real in the target interpreter and report what broke"
DESCRIPTION = """\
Import each module (default: the installed frameworks) in a fresh subprocess of the
target interpreter, with a timeout, and report the result, the native libraries that
loaded and the package owning each. --orders also imports every pair in both orders to
find import-order conflicts. A crash or a hang is reported, never fatal.

examples:
  dldoctor probe                         the installed frameworks
  dldoctor probe torch cv2 --orders      torch and cv2, and both orders of the pair
  dldoctor probe 'PyQt5,torch' --libs    one sequence, with its loaded libraries
"""
SCHEMA_VERSION = 1


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help="module to import; A,B imports A then B in one process")
    parser.add_argument("--python", metavar="PY", help="target interpreter (default: this one)")
    parser.add_argument("--orders", action="store_true", help="import every pair in both orders")
    parser.add_argument("--spawn", action="store_true",
                        help="also start a two-worker pool (and DataLoader) with spawn")
    parser.add_argument("--no-gpu", action="store_true", help="skip the NVIDIA driver query")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds per probe before it is killed (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--libs", action="store_true", help="text: list the loaded libraries")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _home(text: str) -> str:
    home = str(Path.home())
    return text.replace(home, "~") if len(home) > 1 else text


def finding_dict(f: Finding) -> Dict[str, Any]:
    return {"code": f.condition.code, "slug": f.condition.slug, "severity": f.level.label,
            "message": f.message, "evidence": [{"label": e.label, "value": e.value}
                                                 for e in f.evidence],
            "fix": f.fix, "observed": f.observed}


def _probe_dict(p: ImportProbe) -> Dict[str, Any]:
    return {"modules": list(p.modules), "status": p.status, "summary": _home(p.summary()),
            "failed_module": p.failed_module, "exception": p.exc_type or None,
            "message": _home(p.message) or None, "exit": p.exit or None,
            "seconds": round(p.seconds, 3),
            "loaded": [{"path": _home(lib.path), "owner": lib.owner, "baseline": lib.baseline}
                       for lib in p.loaded],
            "facts": [{k: v for k, v in vars(f).items() if v is not None} for f in p.facts]}


def report_dict(report: ProbeReport, findings: List[Finding]) -> Dict[str, Any]:
    gpu = report.to_dict()["gpu"]
    return {"schema_version": SCHEMA_VERSION, "target": _home(report.python),
            "platform": report.platform,
            "findings": [finding_dict(f) for f in findings],
            "imports": [_probe_dict(p) for p in report.imports],
            "pairs": [_probe_dict(p) for p in report.pairs],
            "conflicts": [{"working": list(c.working), "failing": list(c.failing.modules),
                           "culprit": _home(c.culprit.path) if c.culprit else None,
                           "culprit_owner": c.culprit.owner if c.culprit else None}
                          for c in report.conflicts],
            "gpu": gpu,
            "torch_cuda": report.to_dict()["torch_cuda"],
            "spawn": [{"what": s.what, "ok": s.ok, "error": s.error or None}
                      for s in report.spawn],
            "errors": list(report.errors)}


def _owners(p: ImportProbe) -> str:
    counts = Counter(lib.owner or "system" for lib in p.loaded if not lib.baseline)
    return ", ".join(f"{k} {v}" for k, v in counts.most_common())


def render_text(report: ProbeReport, findings: List[Finding], libs: bool) -> str:
    out = [f"dldoctor probe: {_home(report.python)} ({report.platform})"]
    for title, probes in (("imports", report.imports), ("orders", report.pairs)):
        if not probes:
            continue
        out.append(f"{title}:")
        width = max(len(p.label) for p in probes)
        for p in probes:
            new = sum(1 for lib in p.loaded if not lib.baseline)
            detail = (f"{p.seconds:.2f} s, {new} libraries loaded: {_owners(p)}" if p.ok
                      else _home(p.summary()))
            out.append(f"  {p.status:<8} {p.label:<{width}}  {detail}")
            if libs:
                new_libs = sorted((lib for lib in p.loaded if not lib.baseline),
                                  key=lambda lib: (lib.owner in (None, "python"),
                                                   lib.owner or "", lib.path))
                out += [f"      {_home(lib.path)}  [{lib.owner or 'system'}]" for lib in new_libs]
    gpu = report.gpu
    if gpu.driver_present:
        devs = "; ".join(f"{d.index}: {d.name} {d.memory_mib or '?'} MiB sm_"
                         f"{''.join(map(str, d.capability or ('?',)))}" for d in gpu.devices)
        out.append(f"gpu: driver {gpu.driver_version} (CUDA {gpu.cuda_version or '?'}, "
                   f"{gpu.source}) {devs}")
    elif gpu.error != "skipped":
        out.append(f"gpu: {gpu.error or 'no NVIDIA driver'}")
    for s in report.spawn:
        out.append(f"spawn {s.what}: {'ok' if s.ok else _home(s.error)}")
    out += [f"error: {e}" for e in report.errors]
    if findings:
        out.append("findings:")
    for f in findings:
        tag = "observed" if f.observed else "predicted"
        out.append(f"{f.condition.code} {f.level.label} {f.condition.slug}: {f.message} [{tag}]")
        out += [f"    {e.label}: {e.value}" for e in f.evidence]
        if f.fix:
            out.append(f"    fix: {f.fix}")
    failed = [p for p in report.imports if p.status != OK]
    out.append(f"{len(report.imports)} imports probed, {len(failed)} failed, "
               f"{len(report.conflicts)} order conflicts, {len(findings)} findings")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise DldoctorError("--timeout must be positive")
    report = run_probes(args.python, args.modules, orders=args.orders, timeout=args.timeout,
                        gpu=not args.no_gpu, spawn=args.spawn)
    findings = probe_findings(report)
    if args.format == "json":
        sys.stdout.write(json.dumps(report_dict(report, findings), indent=2) + "\n")
    else:
        sys.stdout.write(render_text(report, findings, args.libs) + "\n")
    bad = any(f.level >= Severity.ERROR for f in findings)
    bad = bad or any(p.status != OK for p in report.imports) or bool(report.conflicts)
    return 1 if bad else 0
