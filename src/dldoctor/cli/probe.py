"""``dldoctor probe``: import modules for real in the target interpreter and report.

The probe results become a :class:`~dldoctor.model.Report` (:mod:`dldoctor.probe.report`) so
that the shared renderers print it exactly like ``check`` (DESIGN §7).
"""

from __future__ import annotations

import argparse

from dldoctor.cli._common import add_format, emit, seconds
from dldoctor.model import Severity
from dldoctor.probe import DEFAULT_TIMEOUT, probe_findings, run_probes
from dldoctor.probe.model import OK
from dldoctor.probe.report import to_report
from dldoctor.render import renderer

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


def run(args: argparse.Namespace) -> int:
    report = run_probes(args.python, args.modules, orders=args.orders, timeout=args.timeout,
                        gpu=not args.no_gpu, spawn=args.spawn)
    findings = probe_findings(report)
    emit(renderer(args.format)(to_report(report, findings, args.libs)))
    failed = any(p.status != OK for p in report.imports) or bool(report.conflicts)
    return 1 if failed or any(f.level >= Severity.ERROR for f in findings) else 0
