"""The main-guard interpreter's call stack: same-file functions run with their arguments bound.

A start matters only with the path that leads to it from module level (``main()`` at line 40
calls ``train()``, whose loop iterates a DataLoader with workers), so the interpreter keeps
the stack of calls it is inside; this module holds that stack and what pushes onto it:
calling a value (:meth:`CallStack.apply`), running a function's body with its parameters
bound to the caller's arguments (``self`` to the instance, defaults evaluated where the
function was defined), generators run when iterated, and the bounds that keep hostile input
finite (steps, call depth, no recursion into a function already running).

It is apart from :mod:`dldoctor.lint.interp` (which walks statements and expressions) because
:mod:`dldoctor.lint.effects` needs the stack and not the walker: library calls invoke
same-file hooks and record starts, and the results (:class:`Start`, :class:`Exit`) are read by
the rule. The walker fills in :meth:`CallStack.ev` and :meth:`CallStack.block`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional, Sequence, Set, Tuple

from dldoctor.lint.values import (
    Args,
    ClassV,
    Func,
    FunctionNode,
    Mapping,
    Partial,
    Scope,
    Seq,
    Super,
    Unknown,
    Value,
    join,
    known,
)

if TYPE_CHECKING:
    from dldoctor.lint.effects import Effects

MAX_STEPS = 60_000
#: steps a walk may take per node of its module beyond MAX_STEPS: a big module of simple code
#: (an f-string of 100,000 fields) is walked to its end in time linear in its size, where a
#: fixed budget silently stopped before the lines after it
STEPS_PER_NODE = 2
MAX_DEPTH = 16


class Budget(Exception):
    """The walk used its step budget; what was found so far stands."""


class Exit(Exception):
    """``sys.exit()`` and friends: nothing after it runs."""


@dataclass(frozen=True)
class Start:
    """Worker processes started while the script is imported."""

    trigger: ast.AST  # the module-level node that leads there
    site: ast.AST  # where the start happens
    label: str  # "DataLoader(num_workers=4) iterated"
    path: Tuple[Tuple[str, int], ...]  # (callee, line of the call) from module level down
    unresolved: str = ""  # the worker count's source when the file does not determine it


class Frame:
    """One running body: the values its ``return`` statements gave."""

    def __init__(self) -> None:
        self.returns: List[Value] = []


class Generator(Value):
    """A same-file generator function called but not yet iterated."""

    def __init__(self, func: Func, scope: Scope, call: ast.AST) -> None:
        self.func = func
        self.scope = scope
        self.call = call


def _has_yield(fn: FunctionNode) -> bool:
    todo: List[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _globals_of(fn: FunctionNode) -> Set[str]:
    out: Set[str] = set()
    todo: List[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Global):
            out |= set(node.names)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return out


class CallStack:
    """The calls one walk is inside, the starts recorded so far, and the work done."""

    effects: Effects  # what library calls mean; set by the interpreter

    def __init__(self) -> None:
        self.starts: List[Start] = []
        self.stack: List[Tuple[ast.AST, str]] = []
        self.active: Set[int] = set()
        self.owners: List[Func] = []  # the functions running, innermost last (for super())
        self.steps = 0
        self.max_steps = MAX_STEPS

    # -- filled in by the walker ---------------------------------------------------------
    def ev(self, node: Optional[ast.expr], scope: Scope) -> Value:
        raise NotImplementedError

    def block(self, body: Sequence[ast.stmt], scope: Scope, frame: Frame) -> bool:
        raise NotImplementedError

    # -- results and bounds --------------------------------------------------------------
    def start(self, site: ast.AST, label: str, unresolved: str = "") -> None:
        trigger = self.stack[0][0] if self.stack else site
        path = tuple((name, getattr(node, "lineno", 0)) for node, name in self.stack)
        self.starts.append(Start(trigger, site, label, path, unresolved))

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise Budget()

    # -- calls ---------------------------------------------------------------------------
    def super_(self, scope: Scope) -> Value:
        """``super()`` in a method: the method's class and its first parameter."""
        owner = self.owners[-1] if self.owners else None
        if owner is None or not owner.node.args.args:
            return Unknown("super()")
        instance = scope.lookup(owner.node.args.args[0].arg) or Unknown()
        return Super(instance, owner.owner)

    def apply(self, callee: Value, args: Args, node: ast.AST) -> Value:
        if isinstance(callee, Func):
            return self.invoke(callee, args, node)
        if isinstance(callee, ClassV):
            return self.effects.instantiate(callee, args, node)
        if isinstance(callee, Partial):
            inner = callee.args
            merged = Args(
                [*inner.args, *args.args],
                {**inner.kwargs, **args.kwargs},
                {**inner.texts, **args.texts},
                inner.star_args or args.star_args,
                (*inner.star_kwargs, *args.star_kwargs),
            )
            return self.apply(callee.func, merged, node)
        return self.effects.external(callee, args, node)

    def invoke(self, func: Func, args: Args, node: ast.AST, name: str = "") -> Value:
        """Run a same-file function's body with its parameters bound to ``args``."""
        fn = func.node
        if id(fn) in self.active or len(self.stack) >= MAX_DEPTH:
            return Unknown()
        scope = Scope(func.scope)
        scope.globals = _globals_of(fn)
        self.bind_params(fn, func, args, scope)
        label = name or (f"{func.owner.node.name}.{fn.name}" if func.owner else fn.name)
        if _has_yield(fn):
            return Generator(func, scope, node)
        return self.run_body(func, scope, node, label)

    def run_body(self, func: Func, scope: Scope, node: ast.AST, label: str) -> Value:
        frame = Frame()
        self.active.add(id(func.node))
        self.stack.append((node, label))
        self.owners.append(func)
        try:
            self.block(func.node.body, scope, frame)
        finally:
            self.owners.pop()
            self.stack.pop()
            self.active.discard(id(func.node))
        return join(frame.returns) if frame.returns else known(None)

    def bind_params(self, fn: FunctionNode, func: Func, args: Args, scope: Scope) -> None:
        a = fn.args
        positional = [*getattr(a, "posonlyargs", []), *a.args]
        given = list(args.args)
        if func.self_value is not None:
            given.insert(0, func.self_value)
        defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(a.defaults))
        defaults += list(a.defaults)
        opaque_extra = args.star_args or any(
            not (isinstance(m, Mapping) and m.complete) for m in args.star_kwargs
        )
        for i, param in enumerate(positional):
            found = given[i] if i < len(given) else args.get(param.arg)
            if found is None and opaque_extra:
                found = Unknown(param.arg)
            scope.bind(param.arg, found if found is not None else self.ev(defaults[i], func.scope))
        for param, default in zip(a.kwonlyargs, a.kw_defaults):
            found = args.get(param.arg)
            if found is None and opaque_extra:
                found = Unknown(param.arg)
            scope.bind(param.arg, found if found is not None else self.ev(default, func.scope))
        if a.vararg is not None:
            scope.bind(a.vararg.arg, Seq(tuple(given[len(positional) :])))
        if a.kwarg is not None:
            names = {p.arg for p in (*positional, *a.kwonlyargs)}
            rest = {k: v for k, v in args.kwargs.items() if k not in names}
            scope.bind(a.kwarg.arg, Mapping(rest, not opaque_extra))

    def iter_generator(self, gen: Generator) -> None:
        self.run_body(gen.func, gen.scope, gen.call, gen.func.node.name)
