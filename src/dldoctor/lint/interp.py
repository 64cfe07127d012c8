"""Run a script's import-time code abstractly and record where worker processes start.

Under spawn, each child re-imports the main script, so whatever runs at import time runs
again in the child, and a process start there dies with the bootstrapping RuntimeError. This
interpreter executes exactly that code: the module's statements in order (the body of ``if
__name__ == "__main__":`` skipped, everything before and after it kept), class bodies,
decorators and default values, and the bodies of same-file functions, closures, methods and
generators they call (parameters bound to the caller's arguments, ``self`` to the instance).
Branches it cannot decide run both ways; a loop body runs once (once per element for a
literal list).

This module is the walker: statements and expressions, in the order Python runs them. The
rest of the interpreter is cut by job: :mod:`dldoctor.lint.values` (what a name may hold),
:mod:`dldoctor.lint.frames` (the call stack, argument binding, the bounds, the results),
:mod:`dldoctor.lint.operators` (arithmetic and comparisons over known data),
:mod:`dldoctor.lint.effects` (what library calls mean: which start workers, which iterate)
and :mod:`dldoctor.lint.configs` (argparse and config objects that hold worker counts).

A start is recorded with the *module-level* node that leads to it (the call at module level,
or the loop / call there that starts workers itself) and the chain of calls in between.
Work is bounded (steps and call depth), so hostile input ends the walk, never the process.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Sequence

from dldoctor.lint import operators
from dldoctor.lint.analysis import main_guard
from dldoctor.lint.effects import Effects
from dldoctor.lint.frames import MAX_STEPS, STEPS_PER_NODE, Budget, CallStack, Exit, Frame, Start
from dldoctor.lint.source import segment
from dldoctor.lint.values import (
    Args,
    ClassV,
    Func,
    FunctionNode,
    Instance,
    Known,
    Mapping,
    Opaque,
    Ref,
    Scope,
    Seq,
    Unknown,
    Value,
    join,
    known,
    truth,
)

MAX_UNROLL = 8


class Interpreter(CallStack):
    """One walk over one module; :meth:`run` returns the starts in execution order."""

    def __init__(self, tree: ast.Module, text: str) -> None:
        super().__init__()
        self.max_steps = MAX_STEPS + STEPS_PER_NODE * sum(1 for _ in ast.walk(tree))
        self.tree = tree
        self.text = text
        self.globals = Scope()
        self.effects = Effects(self)

    # -- results -------------------------------------------------------------------------
    def run(self) -> List[Start]:
        try:
            self.block(self.tree.body, self.globals, Frame())
        except (Budget, Exit, RecursionError):
            pass
        return self.starts

    def segment(self, node: ast.AST, limit: int = 24) -> str:
        return segment(self.text, node, limit)

    # -- statements ----------------------------------------------------------------------
    def block(self, body: Sequence[ast.stmt], scope: Scope, frame: Frame) -> bool:
        """Run statements in order; True when the block surely ends (return, raise, exit)."""
        return any(self.stmt(stmt, scope, frame) for stmt in body)

    def enter(self, value: Value, node: ast.AST) -> Value:
        """``with value as x``: a same-file ``__enter__`` runs; library objects return self."""
        if isinstance(value, Instance):
            hook = value.cls.attrs.get("__enter__")
            if isinstance(hook, Func):
                bound = Func(hook.node, hook.scope, hook.owner, value)
                return self.invoke(bound, Args([], {}, {}), node)
        return value

    def stmt(self, node: ast.stmt, scope: Scope, frame: Frame) -> bool:
        self.tick()
        if isinstance(node, ast.Expr):
            self.ev(node.value, scope)
        elif isinstance(node, ast.Assign):
            value = self.ev(node.value, scope)
            for target in node.targets:
                self.assign(target, value, scope)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.ev(node.value, scope), scope)
        elif isinstance(node, ast.AugAssign):
            self.assign(node.target, self.binop(node.op, node.target, node.value, scope), scope)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.define(node, scope)
        elif isinstance(node, ast.ClassDef):
            self.define_class(node, scope)
        elif isinstance(node, ast.If):
            return self.if_(node, scope, frame)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.for_(node, scope, frame)
        elif isinstance(node, ast.While):
            self.ev(node.test, scope)
            self.block(node.body, scope, frame)
            self.block(node.orelse, scope, frame)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                value = self.ev(item.context_expr, scope)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, self.enter(value, item.context_expr), scope)
            return self.block(node.body, scope, frame)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            return self.try_(node, scope, frame)
        elif isinstance(node, ast.Return):
            frame.returns.append(self.ev(node.value, scope) if node.value else known(None))
            return True
        elif isinstance(node, ast.Raise):
            if node.exc is not None:
                self.ev(node.exc, scope)
            return True
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.import_(node, scope)
        elif isinstance(node, ast.Global):
            scope.globals |= set(node.names)
        elif isinstance(node, ast.Assert):
            self.ev(node.test, scope)
        elif type(node).__name__ == "Match":
            self.ev(node.subject, scope)  # type: ignore[attr-defined]
            for case in node.cases:  # type: ignore[attr-defined]
                self.block(case.body, scope, frame)
        return False

    def if_(self, node: ast.If, scope: Scope, frame: Frame) -> bool:
        guard = main_guard(node.test)
        if guard is not None:  # children import the script as __mp_main__: not main
            return self.block(node.orelse if guard else node.body, scope, frame)
        decided = truth(self.ev(node.test, scope))
        if decided is True:
            return self.block(node.body, scope, frame)
        if decided is False:
            return self.block(node.orelse, scope, frame)
        ends = self.block(node.body, scope, frame)
        return self.block(node.orelse, scope, frame) and ends

    def try_(self, node: ast.stmt, scope: Scope, frame: Frame) -> bool:
        ends = self.block(getattr(node, "body", []), scope, frame)
        for handler in getattr(node, "handlers", []):
            self.block(handler.body, scope, frame)
        if not ends:
            self.block(getattr(node, "orelse", []), scope, frame)
        return self.block(getattr(node, "finalbody", []), scope, frame) or (
            ends and not getattr(node, "handlers", [])
        )

    def for_(self, node: ast.stmt, scope: Scope, frame: Frame) -> None:
        it = self.ev(node.iter, scope)  # type: ignore[attr-defined]
        self.effects.iterate(it, node)
        items: Sequence[Value] = (Unknown(),)
        if isinstance(it, Seq) and 0 < len(it.items) <= MAX_UNROLL:
            items = it.items
        for item in items:
            self.assign(node.target, item, scope)  # type: ignore[attr-defined]
            self.block(node.body, scope, frame)  # type: ignore[attr-defined]
        self.block(node.orelse, scope, frame)  # type: ignore[attr-defined]

    def import_(self, node: ast.stmt, scope: Scope) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    scope.bind(alias.asname, Ref(alias.name))
                else:
                    root = alias.name.split(".")[0]
                    scope.bind(root, Ref(root))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    continue
                name = alias.asname or alias.name
                if node.level or not node.module:
                    scope.bind(name, Opaque(name))
                else:
                    scope.bind(name, Ref(f"{node.module}.{alias.name}"))

    def define(self, node: FunctionNode, scope: Scope) -> Func:
        for expr in (*node.decorator_list, *node.args.defaults, *node.args.kw_defaults):
            if expr is not None:
                self.ev(expr, scope)
        func = Func(node, scope)
        scope.bind(node.name, func)
        return func

    def define_class(self, node: ast.ClassDef, scope: Scope) -> None:
        for deco in node.decorator_list:
            self.ev(deco, scope)
        cls = ClassV(node, scope)
        bases: List[str] = []
        parents: List[ClassV] = []
        for base in node.bases:
            value = self.ev(base, scope)
            if isinstance(value, ClassV):
                cls.attrs.update(value.attrs)
                bases.extend(value.bases)
                parents.append(value)
            elif isinstance(value, Ref):
                bases.append(value.qualname)
        cls.bases = tuple(bases)
        cls.parents = tuple(parents)
        body = Scope(scope)
        self.block(node.body, body, Frame())
        for name, value in body.names.items():
            if isinstance(value, Func):  # methods close over the enclosing scope, not the class
                value = Func(value.node, scope, cls)
            cls.attrs[name] = value
        scope.bind(node.name, cls)

    def assign(self, target: ast.expr, value: Value, scope: Scope) -> None:
        if isinstance(target, ast.Name):
            scope.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if isinstance(value, Seq) and len(value.items) == len(elts):
                for elt, item in zip(elts, value.items):
                    self.assign(elt, item, scope)
            else:
                for elt in elts:
                    self.assign(elt.value if isinstance(elt, ast.Starred) else elt, Unknown(), scope)
        elif isinstance(target, ast.Attribute):
            owner = self.ev(target.value, scope)
            if isinstance(owner, (Instance, ClassV)):
                owner.attrs[target.attr] = value
            elif isinstance(owner, Mapping):
                owner.items[target.attr] = value
        elif isinstance(target, ast.Subscript):
            owner = self.ev(target.value, scope)
            key = self.ev(target.slice, scope)
            if isinstance(owner, Mapping) and isinstance(key, Known) and len(key.values) == 1:
                owner.items[str(next(iter(key.values)))] = value

    # -- expressions ---------------------------------------------------------------------
    def ev(self, node: Optional[ast.expr], scope: Scope) -> Value:
        if node is None:
            return known(None)
        self.tick()
        if isinstance(node, ast.Constant):
            return known(node.value)
        if isinstance(node, ast.Name):
            found = scope.lookup(node.id)
            return found if found is not None else Ref(f"builtins.{node.id}")
        if isinstance(node, ast.Attribute):
            return self.effects.attribute(self.ev(node.value, scope), node.attr, node)
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items: List[Value] = []
            for elt in node.elts:
                value = self.ev(elt.value if isinstance(elt, ast.Starred) else elt, scope)
                if isinstance(elt, ast.Starred):
                    return Unknown()
                items.append(value)
            return Seq(tuple(items))
        if isinstance(node, ast.Dict):
            return self.dict_(node, scope)
        if isinstance(node, ast.IfExp):
            decided = truth(self.ev(node.test, scope))
            if decided is not None:
                return self.ev(node.body if decided else node.orelse, scope)
            return join([self.ev(node.body, scope), self.ev(node.orelse, scope)])
        if isinstance(node, ast.BoolOp):
            return self.boolop(node, scope)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, node.left, node.right, scope)
        if isinstance(node, ast.UnaryOp):
            return operators.unary(node.op, self.ev(node.operand, scope))
        if isinstance(node, ast.Compare):
            values = [self.ev(node.left, scope)] + [self.ev(c, scope) for c in node.comparators]
            return operators.compare(node.ops, values)
        if isinstance(node, ast.Subscript):
            return operators.subscript(self.ev(node.value, scope), self.ev(node.slice, scope))
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.comprehension(node, scope)
        if isinstance(node, ast.NamedExpr):
            value = self.ev(node.value, scope)
            self.assign(node.target, value, scope)
            return value
        if isinstance(node, ast.Lambda):
            for default in (*node.args.defaults, *node.args.kw_defaults):
                self.ev(default, scope)
            return Unknown()
        for child in ast.iter_child_nodes(node):  # await, yield, f-strings, slices, starred
            if isinstance(child, ast.expr):
                self.ev(child, scope)
        return Unknown(self.segment(node))

    def dict_(self, node: ast.Dict, scope: Scope) -> Value:
        items: Dict[str, Value] = {}
        complete = True
        for key, val in zip(node.keys, node.values):
            value = self.ev(val, scope)
            if key is None:
                if isinstance(value, Mapping):
                    items.update(value.items)
                    complete = complete and value.complete
                else:
                    complete = False
                continue
            k = self.ev(key, scope)
            if isinstance(k, Known) and len(k.values) == 1:
                items[str(next(iter(k.values)))] = value
            else:
                complete = False
        return Mapping(items, complete)

    def boolop(self, node: ast.BoolOp, scope: Scope) -> Value:
        options: List[Value] = []
        for operand in node.values:
            value = self.ev(operand, scope)
            decided = truth(value)
            stop = decided is True if isinstance(node.op, ast.Or) else decided is False
            go_on = decided is False if isinstance(node.op, ast.Or) else decided is True
            if stop:
                options.append(value)
                return join(options)
            if not go_on:
                options.append(value)
        return join(options) if options else known(isinstance(node.op, ast.And))

    def binop(self, op: ast.operator, left: ast.expr, right: ast.expr, scope: Scope) -> Value:
        return operators.binary(op, self.ev(left, scope), self.ev(right, scope))

    def comprehension(self, node: ast.expr, scope: Scope) -> Value:
        inner = Scope(scope)
        for gen in node.generators:  # type: ignore[attr-defined]
            self.effects.iterate(self.ev(gen.iter, inner), node)
            self.assign(gen.target, Unknown(), inner)
            for cond in gen.ifs:
                self.ev(cond, inner)
        if isinstance(node, ast.DictComp):
            self.ev(node.key, inner)
            self.ev(node.value, inner)
        else:
            self.ev(node.elt, inner)  # type: ignore[attr-defined]
        return Unknown()

    # -- calls ---------------------------------------------------------------------------
    def arguments(self, node: ast.Call, scope: Scope) -> Args:
        out = Args([], {}, {})
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                self.ev(arg.value, scope)
                out.star_args = True
                continue
            out.args.append(self.ev(arg, scope))
            out.texts[str(i)] = self.segment(arg, 18)
        extras: List[Value] = []
        for kw in node.keywords:
            value = self.ev(kw.value, scope)
            if kw.arg is None:
                extras.append(value)
                out.texts.setdefault("**", self.segment(kw.value, 14))
            else:
                out.kwargs[kw.arg] = value
                out.texts[kw.arg] = self.segment(kw.value, 18)
        out.star_kwargs = tuple(extras)
        return out

    def call(self, node: ast.Call, scope: Scope) -> Value:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = self.ev(func.value, scope)
            args = self.arguments(node, scope)
            return self.effects.method(owner, func.attr, args, node)
        if isinstance(func, ast.Name) and func.id == "super" and scope.lookup("super") is None:
            return self.super_(scope)
        callee = self.ev(func, scope)
        args = self.arguments(node, scope)
        return self.apply(callee, args, node)


def walk_starts(tree: ast.Module, text: str) -> Iterator[Start]:
    yield from Interpreter(tree, text).run()
