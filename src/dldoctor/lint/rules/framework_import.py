"""transitive-framework-import: a module that loads a framework on import for one function.

seeds 000 and 002: noisereduce and albumentations import torch at module level, so a torch
that cannot load breaks code that never asked for it. In a module other code imports, an
*optional* ``import torch`` (inside ``try: ... except ImportError`` or under an
``if ..._available`` / ``find_spec`` test: the package works without it) whose names are used
inside a single function only is that shape: moving the import into the function keeps
importing the module cheap and safe. A plain ``import torch`` is not reported: the package
requires torch (in the survey of real packages, all 22 such findings were libraries built on
the framework, or their tests). Only library modules are checked, not tests (see
``dldoctor.lint.runner``): scripts and notebooks are run on purpose. Uses count per outermost
function (methods separately); uses in class bodies, decorators, defaults and evaluated
annotations count as module level.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple, Union

from dldoctor.lint.analysis import location
from dldoctor.lint.model import Context, Hit
from dldoctor.model import Evidence

SLUG = "transitive-framework-import"
_Import = Union[ast.Import, ast.ImportFrom]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException", "OSError"}


def _catches_import_error(node: ast.Try) -> bool:
    for handler in node.handlers:
        kinds = handler.type
        names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if any(n is None or getattr(n, "id", "") in _IMPORT_ERRORS for n in names):
            return True
    return False


def _is_availability_test(test: ast.expr) -> bool:
    text = " ".join(getattr(n, "id", "") or getattr(n, "attr", "") for n in ast.walk(test)).lower()
    return "available" in text or "find_spec" in text


def module_imports(body: List[ast.stmt], optional: bool = False) -> Iterator[Tuple[_Import, bool]]:
    """Imports that run at import time (not in functions, classes or TYPE_CHECKING blocks),
    each with whether it is optional (guarded by an ImportError handler or availability test).
    """
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            yield stmt, optional
        elif isinstance(stmt, ast.If):
            if not _is_type_checking(stmt.test):
                yield from module_imports(stmt.body, optional or _is_availability_test(stmt.test))
            yield from module_imports(stmt.orelse, optional)
        elif isinstance(stmt, ast.Try):
            yield from module_imports(stmt.body, optional or _catches_import_error(stmt))
            for block in (*(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                yield from module_imports(block, optional)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from module_imports(stmt.body, optional)


def bindings(stmt: _Import) -> Iterator[Tuple[str, str]]:
    """(bound name, root module) pairs of one import statement."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            yield (alias.asname or alias.name.split(".")[0]), alias.name.split(".")[0]
    elif stmt.module and not stmt.level:
        for alias in stmt.names:
            if alias.name != "*":
                yield (alias.asname or alias.name), stmt.module.split(".")[0]


class _Uses(ast.NodeVisitor):
    """Scope ("" = module level, else a function name) of every load of the watched names."""

    def __init__(self, names: Set[str], lazy_annotations: bool) -> None:
        self.names = names
        self.lazy = lazy_annotations
        self.scope = ""
        self.owner = ""
        self.uses: Dict[str, Set[str]] = {}

    def _function(self, node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> None:
        for deco in node.decorator_list:
            self.visit(deco)
        args = node.args
        for default in (*args.defaults, *args.kw_defaults):
            if default is not None:
                self.visit(default)
        if not self.lazy:
            for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if arg is not None and arg.annotation is not None:
                    self.visit(arg.annotation)
            if node.returns is not None:
                self.visit(node.returns)
        outer = self.scope
        if not outer:
            self.scope = f"{self.owner}.{node.name}" if self.owner else node.name
        for stmt in node.body:
            self.visit(stmt)
        self.scope = outer

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer = self.owner
        if not self.scope:
            self.owner = node.name
        self.generic_visit(node)
        self.owner = outer

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.names and isinstance(node.ctx, ast.Load):
            self.uses.setdefault(node.id, set()).add(self.scope)


def _is_test(path: Path) -> bool:
    """Test modules are collected by a runner, not imported by users."""
    name = path.name
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or path.parent.name in ("tests", "test")
    )


def _future_annotations(tree: ast.Module) -> bool:
    return any(
        isinstance(s, ast.ImportFrom)
        and s.module == "__future__"
        and any(a.name == "annotations" for a in s.names)
        for s in tree.body
    )


def check(ctx: Context) -> Iterator[Hit]:
    if not ctx.importable or _is_test(ctx.source.path):
        return
    first: Dict[str, _Import] = {}
    names: Dict[str, str] = {}  # bound name -> framework
    for stmt, optional in module_imports(ctx.tree.body):
        for name, root in bindings(stmt):
            if root in ctx.apis.frameworks and optional:
                first.setdefault(root, stmt)
                names[name] = root
    if not names:
        return
    uses = _Uses(set(names), _future_annotations(ctx.tree))
    uses.visit(ctx.tree)
    for framework, stmt in first.items():
        scopes: Set[str] = set()
        for name, root in names.items():
            if root == framework:
                scopes |= uses.uses.get(name, set())
        only: str | None = next(iter(scopes)) if len(scopes) == 1 else None
        if not only:
            continue
        line, col = location(stmt)
        yield Hit(
            SLUG,
            line,
            col,
            f"{framework} imported at module level but used only in {only}()",
            f"Import {framework} inside {only}() so importing this module does not load it.",
            (Evidence("used in", f"{only}()"),),
        )
