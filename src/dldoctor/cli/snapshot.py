"""`dldoctor snapshot`: write the facts about an environment as JSON (secrets redacted)."""

from __future__ import annotations

import argparse
import json

from dldoctor.cli._common import emit, write_file

DESCRIPTION = """\
Collect the facts dldoctor judges (interpreter, packages, native libraries and their
headers, framework builds, environment variables with secrets removed, GPU driver) and
write them as JSON. Judge it anywhere with `dldoctor check --snapshot FILE`.
"""


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--python", metavar="PY", help="interpreter (or venv/conda folder) to describe")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--verify-hashes", action="store_true", help="hash every installed file against RECORD")


def run(args: argparse.Namespace) -> int:
    from dldoctor.snapshot.collect import collect_snapshot

    snap = collect_snapshot(args.python, verify_hashes=args.verify_hashes)
    text = json.dumps(snap.to_dict(), indent=1, sort_keys=True) + "\n"
    if args.output:
        write_file(args.output, text, [snap.host.home])
    else:
        emit(text, [snap.host.home])
    return 0
