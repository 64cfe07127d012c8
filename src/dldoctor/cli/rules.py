"""`dldoctor rules`: list the conditions, or print one condition's page."""

from __future__ import annotations

import argparse

from dldoctor import conditions
from dldoctor.cli._common import emit
from dldoctor.errors import DldoctorError


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule", nargs="?", metavar="CODE_OR_SLUG", help="e.g. DLD014 or shadowed-module")


def run(args: argparse.Namespace) -> int:
    from dldoctor.docs import render_page

    if args.rule:
        try:
            cond = conditions.get(args.rule)
        except KeyError:
            raise DldoctorError(f"unknown rule {args.rule!r}; `dldoctor rules` lists them") from None
        emit(render_page(cond))
        return 0
    from dldoctor.render.text import render_rules

    emit(render_rules(conditions.all_conditions()))
    return 0
