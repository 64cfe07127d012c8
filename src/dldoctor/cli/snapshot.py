"""`dldoctor snapshot`: write the facts about an environment as JSON (secrets redacted)."""

from __future__ import annotations

import argparse
import json
import os
import re

from dldoctor.cli._common import emit, write_file
from dldoctor.errors import DldoctorError

DESCRIPTION = """\
Collect the facts dldoctor judges (interpreter, packages, native libraries and their
headers, framework builds, environment variables with secrets removed, GPU driver) and
write them as JSON. Judge it anywhere with `dldoctor check --snapshot FILE`, compare two
with `dldoctor diff A B`, a folder of them with `dldoctor fleet --from DIR`.

In the -o file name, %n is this node's name (Slurm's SLURMD_NODENAME, else the short host
name), %h the full host name and %% a percent sign: srun does not expand patterns in a
program's arguments, so `srun --nodes=8 --ntasks-per-node=1 dldoctor snapshot -o
snaps/%n.json` writes one file per node. The file appears whole or not at all (written
aside, then renamed), so a folder read while the job runs never holds half a snapshot.
"""


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--python", metavar="PY", help="interpreter (or venv/conda folder) to describe")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout (%%n: node name)")
    p.add_argument("--verify-hashes", action="store_true", help="hash every installed file against RECORD")


def node_name() -> str:
    """The name a scheduler knows this node by: Slurm's SLURMD_NODENAME, else the host name
    up to its first dot."""
    import socket

    return os.environ.get("SLURMD_NODENAME") or socket.gethostname().split(".")[0] or "localhost"


def expand(pattern: str) -> str:
    """``%n`` node name, ``%h`` host name, ``%%`` percent; another ``%x`` is an error."""
    import socket

    def sub(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "n":
            return node_name()
        if code == "h":
            return socket.gethostname() or "localhost"
        if code == "%":
            return "%"
        raise DldoctorError(f"-o {pattern}: unknown placeholder %{code} (known: %n node name, %h host name, %%)")

    return re.sub(r"%(.?)", sub, pattern)


def run(args: argparse.Namespace) -> int:
    from dldoctor.snapshot.collect import collect_snapshot

    output = expand(args.output) if args.output else None
    snap = collect_snapshot(args.python, verify_hashes=args.verify_hashes)
    text = json.dumps(snap.to_dict(), indent=1, sort_keys=True) + "\n"
    if output:
        write_file(output, text, [snap.host.home], atomic=True)
    else:
        emit(text, [snap.host.home])
    return 0
