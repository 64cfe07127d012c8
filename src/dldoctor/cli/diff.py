"""`dldoctor diff A B`: what differs between two machines, weighed, heaviest first."""

from __future__ import annotations

import argparse
from typing import List, Tuple

from dldoctor.cli._common import add_format, emit
from dldoctor.errors import DldoctorError

DESCRIPTION = """\
Compare two environments, each a snapshot file (`dldoctor snapshot -o FILE` on that
machine) or a live interpreter (--python PY, repeatable), and list the differences that can
explain "it works there, fails here", heaviest first: framework versions and builds, the
NVIDIA driver and GPU, which file each native library resolves to, loader-steering
environment variables, the interpreter, packages, and findings present on one side only.
Weights come from conditions/differences.toml.

examples:
  dldoctor diff good.json bad.json
  dldoctor diff good.json --python ~/venv/bin/python --format markdown

exit status: 0 no difference of error weight, 1 at least one, 2 bad usage or input.
"""


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("snapshots", nargs="*", metavar="SNAPSHOT", help="snapshot JSON files (A, then B)")
    p.add_argument("--python", action="append", default=[], metavar="PY",
                   help="a live interpreter (or venv folder) as one side; after the files")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from dldoctor.fleet.diff import diff_snapshots
    from dldoctor.model import Severity
    from dldoctor.render.diff import DIFF_RENDERERS
    from dldoctor.snapshot.collect import collect_snapshot, load_snapshot

    given = len(args.snapshots) + len(args.python)
    if given != 2:
        raise DldoctorError(f"diff compares two environments (snapshot files or --python), {given} given")
    sides: List[Tuple[str, object]] = []
    for path in args.snapshots:
        sides.append((path, load_snapshot(path)))
    for py in args.python:
        snap = collect_snapshot(py)
        sides.append((snap.interpreter.executable or py, snap))
    (name_a, a), (name_b, b) = sides
    report = diff_snapshots(a, b, name_a, name_b)  # type: ignore[arg-type]
    emit(DIFF_RENDERERS[args.format](report), [a.host.home, b.host.home])  # type: ignore[attr-defined]
    return 1 if report.worst is not None and report.worst >= Severity.ERROR else 0
