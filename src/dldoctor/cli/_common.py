"""Options and output shared by subcommands (one place for --format and redaction)."""

from __future__ import annotations

import argparse
import sys
from typing import Iterable

from dldoctor.redact import redact_home


def add_format(parser: argparse.ArgumentParser, choices: Iterable[str] = ("text", "json", "markdown")) -> None:
    parser.add_argument("--format", choices=tuple(choices), default="text", help="output format (default: text)")


def emit(text: str, homes: Iterable[str] = ()) -> None:
    """Write output with home folders shown as ~ (reports get pasted into public issues)."""
    sys.stdout.write(redact_home(text, homes))
    sys.stdout.flush()
