"""`dldoctor check`: inspect an environment and report every known problem."""

from __future__ import annotations

import argparse

from dldoctor.cli._common import add_format, emit
from dldoctor.model import Severity
from dldoctor.render import renderer
from dldoctor.report import build_report

NAME = "check"
HELP = "inspect an environment and report known problems (the default command)"
DESCRIPTION = """\
Inspect a Python environment without importing its frameworks, and report each known
problem with its evidence and a fix. By default the environment is the one dldoctor runs
in; --python checks another interpreter (or environment folder), --snapshot judges a
snapshot taken elsewhere (`dldoctor snapshot -o snap.json` on that machine).

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


def run(args: argparse.Namespace) -> int:
    from dldoctor.checks import resolve_selection
    from dldoctor.snapshot.collect import collect_snapshot, load_snapshot

    resolve_selection(args.select + args.ignore)  # bad names fail before any slow work
    if args.snapshot:
        snap = load_snapshot(args.snapshot)
    else:
        snap = collect_snapshot(args.python, verify_hashes=args.verify_hashes)
    report = build_report(snap, args.select, args.ignore)
    emit(renderer(args.format)(report), [snap.host.home])
    return 1 if report.worst is not None and report.worst >= Severity.ERROR else 0
