"""`dldoctor explain [FILE|-]`: name the likely causes of a pasted error, best first.

I/O only: read the text (capped, so a multi-GB CI log is read from its tail, where
tracebacks end), gather machine facts unless --no-env, and print one rendering.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

from dldoctor.checks import run_checks
from dldoctor.cli._common import emit
from dldoctor.errors import DldoctorError
from dldoctor.explainer import diagnose_text, facts_from_snapshot, load_signatures
from dldoctor.explainer.report import render_json, render_text
from dldoctor.model import CheckResult
from dldoctor.snapshot.collect import collect_snapshot
from dldoctor.snapshot.model import Snapshot

NAME = "explain"
HELP = "name the likely cause of a pasted error message (traceback, pip/conda or CI log)"
DESCRIPTION = """\
Read an error text (a file, or stdin with -) and name the known conditions it points at,
best first: the lines that matched, what they mean, the fix for your platform and how to
confirm it. Unless --no-env, candidates are weighed with facts from this machine (or from
--snapshot FILE, another machine's `dldoctor snapshot` output).

exit status: 0 a known condition matched, 1 none did, 2 unreadable input.
"""
MAX_BYTES = 32 * 1024 * 1024  # read at most the last 32 MiB of a log


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="text file to read; - for stdin")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--no-env", action="store_true", help="do not weigh candidates with this machine's facts")
    parser.add_argument("--snapshot", metavar="FILE", help="weigh with a saved snapshot instead of this machine")


def read_input(name: str) -> str:
    """The text to explain, decoded leniently; raises DldoctorError when unreadable."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            path = Path(name)
            with path.open("rb") as fh:
                size = fh.seek(0, 2)
                fh.seek(max(0, size - MAX_BYTES))
                data = fh.read(MAX_BYTES)
    except OSError as exc:
        raise DldoctorError(f"cannot read {name}: {exc.strerror or exc}") from None
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


def _snapshot_from_file(name: str) -> Any:
    try:
        raw = json.loads(Path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DldoctorError(f"cannot read snapshot {name}: {exc}") from None
    if not isinstance(raw, dict):
        raise DldoctorError(f"cannot read snapshot {name}: not a JSON object")
    try:
        return Snapshot.from_dict(raw)
    except Exception:  # a partial or older snapshot still has facts worth reading
        return raw


def _collect_here() -> Tuple[Any, List[str]]:
    try:
        return collect_snapshot(), []
    except Exception as exc:  # the doctor never dies: explain from the text alone
        return None, [f"could not collect machine facts: {exc}"]


def _checks(snapshot: Any) -> Tuple[Sequence[CheckResult], List[str]]:
    if not isinstance(snapshot, Snapshot):
        return (), []
    try:
        return tuple(run_checks(snapshot)), []
    except Exception as exc:
        return (), [f"checks failed: {exc}"]


def run(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    notes: List[str] = []
    snapshot: Optional[Any] = None
    machine = "not used (--no-env)"
    if args.snapshot:
        snapshot, machine = _snapshot_from_file(args.snapshot), f"snapshot {args.snapshot}"
    elif not args.no_env:
        snapshot, notes = _collect_here()
        machine = "this machine" if snapshot is not None else "unavailable"
    results, check_notes = _checks(snapshot)
    sigs = load_signatures()
    report = diagnose_text(
        text,
        facts=facts_from_snapshot(snapshot),
        results=results,
        sigs=sigs,
        machine=machine,
        notes=[*notes, *check_notes],
    )
    homes = [snapshot.host.home] if isinstance(snapshot, Snapshot) else []
    if args.format == "json":
        emit(json.dumps(render_json(report, sigs), indent=2, ensure_ascii=False) + "\n", homes)
    else:
        emit(render_text(report, sigs), homes)
    return 0 if report.shown else 1
