"""Command-line entry point.

Each subcommand lives in its own module exposing ``NAME``, ``HELP``, ``register(parser)``
and ``run(args) -> int``; this module only wires them up and turns
:class:`~dldoctor.errors.DldoctorError` into one line on stderr and exit 2. Printing is
allowed only in ``dldoctor.cli``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, NoReturn, Optional, Sequence

from dldoctor import __version__
from dldoctor.cli._common import error_line
from dldoctor.conditions import DataError
from dldoctor.errors import DldoctorError

# Order = order in --help. "check" is also what a bare `dldoctor` runs.
SUBCOMMANDS = ("check", "snapshot", "explain", "deps", "probe", "lint", "wheels", "rules")

EPILOG = """\
exit status: 0 no error found, 1 at least one error finding (explain: no known
condition matched; lint: findings), 2 bad usage or unreadable input.

examples:
  dldoctor                          check the current environment
  dldoctor check --python ~/venv/bin/python --format markdown
  dldoctor explain error.log        name the cause of a pasted traceback
  dldoctor rules shadowed-module    read one condition's page
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Bad usage is one line on stderr, like every other exit-2 error (README)."""
        self.exit(2, f"dldoctor: {message} (usage: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dldoctor",
        description="Diagnose why a Python deep-learning stack fails to import or run.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"dldoctor {__version__}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in SUBCOMMANDS:
        try:
            mod = importlib.import_module(f"dldoctor.cli.{name}")
        except ModuleNotFoundError as exc:  # a subcommand not built yet
            if exc.name != f"dldoctor.cli.{name}":
                raise
            continue
        sub = subs.add_parser(
            name,
            help=mod.HELP,
            description=getattr(mod, "DESCRIPTION", mod.HELP),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        mod.register(sub)
        sub.set_defaults(_run=mod.run)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args_list: List[str] = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "check")
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
