"""Values the lint rules produce and the runner returns (frozen, compared by value in tests)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Tuple

from dldoctor.lint.analysis import ModuleInfo
from dldoctor.lint.data import Apis
from dldoctor.lint.source import Source, segment
from dldoctor.model import Condition, Evidence


@dataclass(frozen=True)
class Hit:
    """What a rule saw, at a line of the (joined) source text."""

    slug: str
    line: int
    col: int
    message: str
    fix: str = ""  # empty: the condition's own fix
    evidence: Tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class LintFinding:
    """One condition seen at one place of one file."""

    condition: Condition
    path: str
    line: int
    col: int
    message: str
    fix: str
    evidence: Tuple[Evidence, ...] = ()
    cell: int | None = None  # notebooks: 1-based code cell; line is within the cell


@dataclass(frozen=True)
class LintResult:
    findings: Tuple[LintFinding, ...] = ()
    errors: Tuple[Tuple[str, str], ...] = ()  # (path, message): files that could not be linted
    warnings: Tuple[Tuple[str, str], ...] = ()  # (path, message): parts left out (a cell)
    files: int = 0


@dataclass(frozen=True)
class Context:
    """Everything a rule may look at for one file."""

    source: Source
    tree: ast.Module
    info: ModuleInfo
    apis: Apis
    script: bool  # runs as a script: the main-guard rule applies
    importable: bool  # imported by other code: the transitive-import rule applies
    notes: Tuple[str, ...] = field(default=())

    def where(self, line: int) -> str:
        """A line of the source as the user sees it ("line 4", "cell 2 line 1")."""
        cell, at = self.source.locate(line)
        return f"line {at}" if cell is None else f"cell {cell} line {at}"

    def segment(self, node: ast.AST, limit: int = 24) -> str:
        """The source text of a node, shortened for a one-line message."""
        return segment(self.source.text, node, limit)
