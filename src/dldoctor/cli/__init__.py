"""Command-line entry point.

Each subcommand lives in its own module exposing ``register(parser)``, ``run(args) -> int``
and optionally ``DESCRIPTION``; its name and one-line help live in :data:`COMMANDS` below,
so that ``dldoctor --help`` and ``--version`` import no subcommand, and a run imports only
the one it runs (with the data that one needs): start-up is paid per use, not for all
eight. This module turns :class:`~dldoctor.errors.DldoctorError` into one line on stderr and
exit 2. Printing is allowed only in ``dldoctor.cli``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import List, NoReturn, Optional, Sequence, Type, cast

from dldoctor._version import __version__
from dldoctor.cli._common import error_line
from dldoctor.errors import DataError, DldoctorError

# name -> one-line help. Order = order in --help. "check" is also what a bare `dldoctor` runs.
COMMANDS = {
    "check": "inspect an environment and report known problems (the default command)",
    "snapshot": "write the environment's facts as JSON, to judge later or elsewhere",
    "explain": "name the likely cause of a pasted error message (traceback, pip/conda or CI log)",
    "deps": "show which file each native dependency of a library resolves to, and why",
    "probe": "import modules for real in the target interpreter and report what broke",
    "lint": "find multiprocessing / CUDA IPC / import pitfalls in Python files and notebooks",
    "wheels": "check a set of wheels as if installed on a (foreign) platform, before installing",
    "diff": "compare two environments (snapshots or interpreters): the differences that can explain a failure",
    "fleet": "judge many machines' snapshots together (a folder, or a Ray cluster): who differs, and how",
    "rules": "list known conditions, or explain one (by code or slug)",
}
SUBCOMMANDS = tuple(COMMANDS)

EPILOG = """\
exit status: 0 no error found, 1 at least one error finding (explain: no known
condition matched; lint: findings), 2 bad usage or unreadable input.

examples:
  dldoctor                          check the current environment
  dldoctor check --python ~/venv/bin/python --format markdown
  dldoctor explain error.log        name the cause of a pasted traceback
  dldoctor rules shadowed-module    read one condition's page
"""


def _terminal_width() -> int:
    """What argparse gets from shutil.get_terminal_size(), without importing shutil (and
    with it bz2, lzma, zlib: ~1.5 ms of every run, since each add_argument makes a formatter)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2  # argparse leaves two columns free


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Bad usage is one line on stderr, like every other exit-2 error (README)."""
        self.exit(2, f"dldoctor: {message} (usage: {self.prog} --help)\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter_class = cast(Type[argparse.HelpFormatter], self.formatter_class)
        return formatter_class(prog=self.prog, width=_terminal_width())


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported and registers its options
    (every command is listed, so --help and "invalid choice" still name them all)."""
    parser = _Parser(
        prog="dldoctor",
        description="Diagnose why a Python deep-learning stack fails to import or run.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"dldoctor {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_line in COMMANDS.items():
        if name != command:
            subs.add_parser(name, help=help_line, add_help=False)
            continue
        mod = importlib.import_module(f"dldoctor.cli.{name}")
        sub = subs.add_parser(
            name,
            help=help_line,
            description=getattr(mod, "DESCRIPTION", help_line),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        mod.register(sub)
        sub.set_defaults(_run=mod.run)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args_list: List[str] = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "check")
    try:
        parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
    except DataError as exc:  # registering read a broken shipped data file: a bug, still one line
        error_line(f"internal data error (please report): {exc}")
        return 2
    args = parser.parse_args(args_list)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args))
    except DldoctorError as exc:
        error_line(str(exc))
        return 2
    except DataError as exc:  # a broken data file shipped with dldoctor: a bug, still one line
        error_line(f"internal data error (please report): {exc}")
        return 2
    except KeyboardInterrupt:
        error_line("interrupted")
        return 130
    except BrokenPipeError:
        return 0
