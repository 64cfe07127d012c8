"""What one module binds and what runs when it is imported: the facts every rule shares.

The central question of the main-guard rule is "what runs at import time?". With the spawn
start method a child process re-imports the main script as ``__mp_main__``, so everything
that runs at import time (module-level statements outside ``if __name__ == "__main__":``,
class bodies, decorators, default values, and the bodies of same-module functions they call,
transitively) runs again in every child. :class:`Reach` answers it for one block of code;
:class:`ModuleInfo` resolves names through imports so aliases (``import multiprocessing as
mp``, ``from torch.utils.data import DataLoader as DL``) are seen for what they are.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterable, List, Sequence, Set, Tuple, Union

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def main_guard(test: ast.expr) -> bool | None:
    """True for ``__name__ == "__main__"`` (body guarded), False for ``!=`` (else guarded)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return True if any(main_guard(v) is True for v in test.values) else None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None

    def side(node: ast.expr) -> str:
        if isinstance(node, ast.Name) and node.id == "__name__":
            return "name"
        if isinstance(node, ast.Constant) and node.value == "__main__":
            return "main"
        return ""

    if {side(test.left), side(test.comparators[0])} != {"name", "main"}:
        return None
    if isinstance(test.ops[0], (ast.Eq, ast.Is)):
        return True
    if isinstance(test.ops[0], (ast.NotEq, ast.IsNot)):
        return False
    return None


def has_main_guard(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.If) and main_guard(node.test) is not None for node in ast.walk(tree)
    )


class Reach(ast.NodeVisitor):
    """What a block of statements executes, without entering function or lambda bodies.

    Collects the calls made, the names loaded, and which local names hold an instance of a
    same-module class (``trainer = Trainer(...)``), so ``trainer.fit()`` can be followed.
    """

    def __init__(self, classes: Iterable[str] = ()) -> None:
        self.calls: List[ast.Call] = []
        self.loads: Set[str] = set()
        self.instances: Dict[str, str] = {}
        self._classes = set(classes)
        self.argv = False  # sys.argv read or parse_args() called: run from a command line

    def run(self, body: Sequence[ast.stmt]) -> Reach:
        for stmt in body:
            self.visit(stmt)
        return self

    def visit_If(self, node: ast.If) -> None:
        guard = main_guard(node.test)
        if guard is None:
            self.generic_visit(node)
            return
        self.visit(node.test)
        for stmt in node.orelse if guard else node.body:
            self.visit(stmt)

    def _visit_def(self, node: Union[FunctionNode, ast.Lambda]) -> None:
        args = node.args
        for default in (*args.defaults, *args.kw_defaults):
            if default is not None:
                self.visit(default)
        if not isinstance(node, ast.Lambda):
            for deco in node.decorator_list:
                self.visit(deco)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._visit_def(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._visit_def(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_def(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in self._classes
        ):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.instances[target.id] = value.func.id
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.calls.append(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "parse_args":
            self.argv = True
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr == "argv":
            self.argv = True
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.loads.add(node.id)


class ModuleInfo:
    """Name bindings of one module: imports (aliases), functions, classes, int constants."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.aliases: Dict[str, str] = {}
        self.functions: Dict[str, FunctionNode] = {}
        self.classes: Dict[str, ast.ClassDef] = {}
        self.owner: Dict[int, str] = {}  # id(method node) -> class name
        self.ints: Dict[str, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        root = alias.name.split(".")[0]
                        self.aliases[root] = root
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if alias.name != "*":
                        self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                    q = self.qualname(node.value)
                    if q and q in ("multiprocessing", "torch.multiprocessing"):
                        self.aliases[target.id] = q  # ctx = mp.get_context("spawn")
        for stmt in tree.body:
            if isinstance(stmt, _DEFS):
                self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
                for item in stmt.body:
                    if isinstance(item, _DEFS):
                        self.owner[id(item)] = stmt.name
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                value = stmt.value
                if (
                    isinstance(target, ast.Name)
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, int)
                    and not isinstance(value.value, bool)
                ):
                    self.ints[target.id] = value.value

    def qualname(self, node: ast.expr) -> str | None:
        """``mp.Pool`` -> ``multiprocessing.Pool``; ``mp.get_context()`` -> ``multiprocessing``."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.qualname(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            q = self.qualname(node.func)
            if q and q.endswith(".get_context"):
                return q[: -len(".get_context")]
        return None

    def method(self, cls: str, name: str) -> FunctionNode | None:
        for item in self.classes[cls].body:
            if isinstance(item, _DEFS) and item.name == name:
                return item
        return None

    def reach(self, body: Sequence[ast.stmt]) -> Reach:
        return Reach(self.classes).run(body)

    def targets(self, call: ast.Call, reach: Reach, fn: FunctionNode | None) -> List[FunctionNode]:
        """Same-module functions a call runs: functions, class __init__, known methods."""
        func = call.func
        if isinstance(func, ast.Name):
            if func.id in self.functions:
                return [self.functions[func.id]]
            if func.id in self.classes:
                init = self.method(func.id, "__init__")
                return [init] if init else []
            return []
        if not isinstance(func, ast.Attribute):
            return []
        value = func.value
        cls: str | None = None
        if isinstance(value, ast.Name):
            if value.id == "self" and fn is not None:
                cls = self.owner.get(id(fn))
            elif value.id in reach.instances:
                cls = reach.instances[value.id]
            elif value.id in self.classes:
                cls = value.id
        elif (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in self.classes
        ):
            cls = value.func.id
        if cls is None:
            return []
        target = self.method(cls, func.attr)
        return [target] if target else []


def display_name(fn: FunctionNode, info: ModuleInfo) -> str:
    cls = info.owner.get(id(fn))
    return f"{cls}.{fn.name}" if cls else fn.name


def location(node: ast.AST) -> Tuple[int, int]:
    """1-based line and column, as ruff prints them."""
    return getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
