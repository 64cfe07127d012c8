"""``dldoctor lint PATH...``: the code pitfalls of seeds 003 and 004, before they run."""

from __future__ import annotations

import argparse

from dldoctor.cli._common import emit, stderr_line
from dldoctor.lint.runner import lint_paths
from dldoctor.render.lint import render_json, render_sarif, render_text

DESCRIPTION = """\
Statically check scripts, modules and notebooks (stdlib ast; nothing is imported or run).

rules: DLD026 multiprocessing-main-guard, DLD029 cuda-ipc-unsupported,
       DLD006 transitive-framework-import, DLD004 import-order-conflict
       (`dldoctor rules CODE` explains each). Silence one line with `# noqa: DLD026`.

Files in a package (a folder with __init__.py) that have no `if __name__ == "__main__":`
block, no shebang and no command-line parsing are library modules: the main-guard rule
skips them unless --script is given. Notebooks are never checked for the main guard.

exit status: 1 when there is any finding; otherwise 2 when a path is missing or a file
could not be read or parsed (one line per file on stderr; the other files are still
linted); otherwise 0.
"""


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="CODES",
        help="only these rules (codes or slugs, comma-separated)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="CODES",
        help="skip these rules (codes or slugs, comma-separated)",
    )
    parser.add_argument(
        "--script", action="store_true", help="treat every .py file as a script run directly"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show a fix line per finding")


def run(args: argparse.Namespace) -> int:
    result = lint_paths(args.paths, args.select, args.ignore, force_script=args.script)
    for path, message in result.errors:
        stderr_line(f"{path}: error: {message}")
    for path, message in result.warnings:
        stderr_line(f"{path}: warning: {message}")
    if args.format == "json":
        emit(render_json(result))
    elif args.format == "sarif":
        emit(render_sarif(result))
    else:
        emit(render_text(result, verbose=args.verbose))
    if result.findings:
        return 1
    return 2 if result.errors else 0
