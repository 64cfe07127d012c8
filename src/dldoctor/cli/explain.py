"""`dldoctor explain [FILE|-]`: name the likely causes of a pasted error, best first.

I/O only: read the text (capped, so a multi-GB CI log is read from its tail, where
tracebacks end), gather machine facts unless --no-env, and print one rendering.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, List, Optional, Sequence, Tuple

from dldoctor.checks import run_checks
from dldoctor.cli._common import emit
from dldoctor.errors import DldoctorError
from dldoctor.explainer import diagnose_text, facts_from_snapshot, load_signatures
from dldoctor.inputs import read_json, read_text
from dldoctor.model import CheckResult
from dldoctor.snapshot.collect import collect_snapshot
from dldoctor.snapshot.model import Snapshot

DESCRIPTION = """\
Read an error text (a file, or stdin with -) and name the known conditions it points at,
best first: the lines that matched, what they mean, the fix for your platform and how to
confirm it. Unless --no-env, candidates are weighed with facts from this machine (or from
--snapshot FILE, another machine's `dldoctor snapshot` output).

exit status: 0 a known condition matched, 1 none did, 2 unreadable input.
"""


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="text file to read; - for stdin")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--no-env", action="store_true", help="do not weigh candidates with this machine's facts")
    parser.add_argument("--snapshot", metavar="FILE", help="weigh with a saved snapshot instead of this machine")


def read_input(name: str) -> Tuple[str, str]:
    """The text to explain, decoded leniently, and a note on what was skipped ("" if nothing).

    At most 32 MiB: of a file its end (where tracebacks are), of a pipe its start.
    Raises DldoctorError when unreadable or not a regular file.
    """
    return read_text(name, tail=True)


def _snapshot_from_file(name: str) -> Any:
    raw = read_json(name, f"--snapshot {name}", invalid="not a dldoctor snapshot")
    if not isinstance(raw, dict):
        raise DldoctorError(f"--snapshot {name}: not a dldoctor snapshot (not a JSON object)")
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
    text, skipped = read_input(args.file)
    notes: List[str] = []
    if skipped:  # one line on stderr whatever the format; JSON also carries it in "notes"
        print(f"dldoctor: note: {skipped}", file=sys.stderr)
        if args.format == "json":
            notes.append(skipped)
    snapshot: Optional[Any] = None
    machine = "not used (--no-env)"
    if args.snapshot:
        snapshot, machine = _snapshot_from_file(args.snapshot), f"snapshot {args.snapshot}"
    elif not args.no_env:
        snapshot, collect_notes = _collect_here()
        notes += collect_notes
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
        from dldoctor.render.json import explain_dict

        emit(json.dumps(explain_dict(report), indent=2, ensure_ascii=False) + "\n", homes)
    else:
        from dldoctor.render.text import render_explain

        emit(render_explain(report), homes)
    return 0 if report.shown else 1
