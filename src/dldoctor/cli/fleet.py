"""`dldoctor fleet`: one snapshot per machine, judged together."""

from __future__ import annotations

import argparse
from typing import Iterable

from dldoctor.cli._common import add_format, emit, seconds

DESCRIPTION = """\
Judge many machines together: group them by identical relevant facts, take the largest
group as the baseline, and show every other group's differences from it (as `dldoctor
diff`) and its own findings, under one count line, e.g.
  61 nodes alike; 3 differ: driver 535.104 on node-17, node-22; LD_LIBRARY_PATH on node-40

Snapshots come from a folder (--from DIR: one `NAME.json` per machine, written by e.g.
  srun --nodes=64 --ntasks-per-node=1 dldoctor snapshot -o DIR/%n.json
where dldoctor expands %n to the node's name) or from a running Ray cluster (--ray ADDRESS,
needs `pip install 'dldoctor[fleet]'`): one task pinned to every alive node runs the
collector there, in the interpreter Ray runs on that node or --python PATH. A file that
cannot be read, a dead node, a timeout are rows of the report.

exit status: 0 all machines alike or differing without error weight, 1 an error-weight
difference, an error finding or a machine without a snapshot, 2 bad usage or input.
"""


def register(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--from", dest="folder", metavar="DIR", help="a folder of snapshot JSON files, one per machine")
    src.add_argument("--ray", metavar="ADDRESS", help="a Ray cluster address ('auto', 'HOST:PORT', 'ray://HOST:PORT')")
    p.add_argument("--python", metavar="PATH", help="with --ray: the interpreter to describe on every node "
                   "(default: the one Ray runs the task in)")
    p.add_argument("--timeout", type=seconds, default=300.0, metavar="S",
                   help="with --ray: seconds to wait for all nodes (default: 300)")
    add_format(p)


def run(args: argparse.Namespace) -> int:
    from dldoctor.errors import DldoctorError
    from dldoctor.fleet.group import Machine, from_folder, judge_fleet
    from dldoctor.model import Severity
    from dldoctor.render.diff import FLEET_RENDERERS

    machines: Iterable[Machine]
    if args.folder:
        if args.python:
            raise DldoctorError("--python applies to --ray (a folder's snapshots are taken already)")
        machines = from_folder(args.folder)
        source = args.folder
    else:
        from dldoctor.snapshot.ray_fleet import collect_ray

        machines = [Machine(n, s, e) for n, s, e in collect_ray(args.ray, args.python, args.timeout)]
        source = f"Ray cluster {args.ray}"
    report = judge_fleet(machines, source)
    emit(FLEET_RENDERERS[args.format](report), report.homes)
    bad = report.failed or (report.worst is not None and report.worst >= Severity.ERROR)
    return 1 if bad else 0
