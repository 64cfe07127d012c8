"""`dldoctor check`: inspect an environment and report every known problem."""

from __future__ import annotations

import argparse
from concurrent.futures import ThreadPoolExecutor
from typing import List

from dldoctor.cli._common import add_format, emit, seconds
from dldoctor.model import Finding, Severity
from dldoctor.render import renderer
from dldoctor.report import build_report

DESCRIPTION = """\
Inspect a Python environment without importing its frameworks, and report each known
problem with its evidence and a fix. By default the environment is the one dldoctor runs
in; --python checks another interpreter (or environment folder), --snapshot judges a
snapshot taken elsewhere (`dldoctor snapshot -o snap.json` on that machine).
Unless --no-probe (or --snapshot), each installed framework is also imported for real in
a fresh subprocess of the target, concurrently; what the probes saw is marked "observed",
the rest is predicted from the files.

exit status: 0 no error finding, 1 at least one error finding, 2 bad usage or input.
"""


def register(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group()
    src.add_argument("--python", metavar="PY", help="interpreter (or venv/conda folder) to check")
    src.add_argument("--snapshot", metavar="FILE", help="judge a snapshot JSON file instead")
    add_format(p)
    p.add_argument("--select", action="append", default=[], metavar="CODES",
                   help="only these conditions (codes or slugs, comma-separated; repeatable)")
    p.add_argument("--ignore", action="append", default=[], metavar="CODES",
                   help="skip these conditions (codes or slugs, comma-separated; repeatable)")
    p.add_argument("--verify-hashes", action="store_true",
                   help="hash every installed file against RECORD (slow; default: existence and library sizes)")
    p.add_argument("--no-probe", action="store_true",
                   help="static checks only: do not import the frameworks in subprocesses")
    p.add_argument("--probe-timeout", type=seconds, default=60.0, metavar="S",
                   help="seconds each probe import may take (default: 60)")


def run(args: argparse.Namespace) -> int:
    from dldoctor.checks import resolve_selection
    from dldoctor.snapshot.collect import collect_snapshot, load_snapshot

    resolve_selection(args.select + args.ignore)  # bad names fail before any slow work
    observed: List[Finding] = []
    errors: List[str] = []
    if args.snapshot:
        snap = load_snapshot(args.snapshot)
    elif args.no_probe:
        snap = collect_snapshot(args.python, verify_hashes=args.verify_hashes)
    else:
        from dldoctor.probe.api import run_probes
        from dldoctor.probe.findings import probe_findings

        # Probes import the frameworks (seconds); static collection runs meanwhile.
        with ThreadPoolExecutor(max_workers=2) as pool:
            probe_f = pool.submit(run_probes, args.python, (), False, args.probe_timeout, gpu=False)
            snap = collect_snapshot(args.python, verify_hashes=args.verify_hashes)
            probes = probe_f.result()
        observed = probe_findings(probes, snap)
        errors = list(probes.errors)
    report = build_report(snap, args.select, args.ignore, observed, errors)
    emit(renderer(args.format)(report), [snap.host.home])
    return 1 if report.worst is not None and report.worst >= Severity.ERROR else 0
