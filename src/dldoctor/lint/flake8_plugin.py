"""flake8 plugin: the dldoctor lint rules inside an existing flake8 run.

flake8 hands over the parsed tree and the file name and applies ``# noqa`` and
``--select/--extend-ignore`` itself, so the plugin runs every rule and reports all hits
(columns 0-based, as flake8 expects). Registered under the ``DLD`` prefix.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, Tuple, Type

from dldoctor import conditions
from dldoctor._version import __version__
from dldoctor.lint.analysis import ModuleInfo
from dldoctor.lint.data import apis
from dldoctor.lint.model import Context
from dldoctor.lint.runner import RULES, classify, fit
from dldoctor.lint.source import Source


class Plugin:
    name = "dldoctor"
    version = __version__

    def __init__(self, tree: ast.Module, filename: str = "stdin", lines: Tuple[str, ...] = ()):
        self.tree = tree
        self.filename = filename
        self.lines = lines

    def run(self) -> Iterator[Tuple[int, int, str, Type[Plugin]]]:
        """The hits; a tree deeper than the analyses can walk ends the file's hits quietly,
        so that one generated file cannot stop flake8's whole run."""
        try:
            yield from self._hits()
        except RecursionError:
            return

    def _hits(self) -> Iterator[Tuple[int, int, str, Type[Plugin]]]:
        source = Source(Path(self.filename), "".join(self.lines))
        info = ModuleInfo(self.tree)
        script, importable = classify(source, info, force_script=False)
        ctx = Context(source, self.tree, info, apis(), script, importable)
        for slug, rule in RULES:
            code = conditions.get(slug).code
            for hit in rule(ctx):
                yield hit.line, hit.col - 1, f"{code} {fit(hit.message, 72)}", type(self)
