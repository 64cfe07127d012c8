"""What library calls mean to the main-guard interpreter: which start workers, which iterate.

The names come from ``apis.toml`` (data, with the measurements behind them); this module
gives each group its meaning. The model, each part measured under spawn:

* ``Pool(...)``, ``Manager()``, ``torch.multiprocessing.spawn`` start processes when called.
* ``Process(...)`` starts one on ``start()``, ``ProcessPoolExecutor(...)`` on ``submit()`` /
  ``map()``; building them starts nothing.
* A DataLoader starts ``num_workers`` processes when iterated (``for``, a comprehension,
  ``iter()``, ``next(iter())``, ``list()``, ``enumerate`` / ``zip`` / ``tqdm`` that are then
  iterated), not when built and not on ``len()``. ``num_workers`` absent or 0: no processes.
* A trainer's fit / validate / test / predict iterates the loaders given to it or returned
  by the model's (or data module's) ``*_dataloader`` hooks.
* A DataLoader with workers handed to a function whose code is not in the file is taken to be
  iterated there, unless that function is known not to (``len``, ``print``, logging).
"""

from __future__ import annotations

import ast
import operator
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence

from dldoctor.lint.data import Flow, Spawner, apis
from dldoctor.lint.values import (
    Args,
    ClassV,
    Func,
    Instance,
    Known,
    Lazy,
    Loader,
    Mapping,
    Opaque,
    Parser,
    Partial,
    Ref,
    Seq,
    Super,
    Trainer,
    Unknown,
    Value,
    Wrapped,
    ints,
    join,
    known,
)

if TYPE_CHECKING:
    from dldoctor.lint.interp import Interpreter

_BINARY: Dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}
_COMPARE: Dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_STRING_SAFE = (operator.eq, operator.ne, operator.add, operator.is_, operator.is_not)
_NUMBER = (int, float)
_BASE = "<base>"  # an instance attribute: what super().__init__ of an external base built


def _small(value: object) -> bool:
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, _NUMBER):
        return abs(value) < 10**12
    return isinstance(value, str) and len(value) < 256


def _combine(fn: Callable[[Any, Any], Any], a: Value, b: Value) -> Value:
    """Apply a binary operation to every pair of known values (numbers and short strings)."""
    if not (isinstance(a, Known) and isinstance(b, Known)) or len(a.values) * len(b.values) > 64:
        return Unknown()
    out = set()
    for x in a.values:
        for y in b.values:
            if not (_small(x) and _small(y)):
                return Unknown()
            if (isinstance(x, str) or isinstance(y, str)) and fn not in _STRING_SAFE:
                return Unknown()  # "ab" * 10**11 must not be built
            try:
                result = fn(x, y)
            except Exception:
                return Unknown()
            if not _small(result):
                return Unknown()
            out.add(result)
    return Known(frozenset(out))


def _map1(fn: Callable[[Any], Any], value: Value) -> Value:
    """Apply a one-argument conversion (``int("2")``) to every known value."""
    if not isinstance(value, Known) or len(value.values) > 64:
        return Unknown()
    out = set()
    for x in value.values:
        if not _small(x):
            return Unknown()
        try:
            result = fn(x)
        except Exception:  # int("x") in the script: unknown, not our error
            return Unknown()
        if not _small(result):
            return Unknown()
        out.add(result)
    return Known(frozenset(out))


def _loaders(value: Value, depth: int = 0) -> List[Value]:
    """DataLoaders (or instances that may hold one) in a value, one container deep."""
    if isinstance(value, (Loader, Wrapped, Instance)):
        return [value]
    if depth == 0 and isinstance(value, Seq):
        return [x for item in value.items for x in _loaders(item, 1)]
    if depth == 0 and isinstance(value, Mapping):
        return [x for item in value.items.values() for x in _loaders(item, 1)]
    return []


class Effects:
    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.apis = apis()
        flow = self.apis.flow
        assert flow is not None
        self.flow: Flow = flow

    # -- plain data ----------------------------------------------------------------------
    def unary(self, op: ast.unaryop, value: Value) -> Value:
        if isinstance(op, ast.Not):
            if isinstance(value, Known):
                return Known(frozenset(not v for v in value.values))
            return Unknown()
        if isinstance(op, ast.USub):
            return _combine(operator.sub, known(0), value)
        return value if isinstance(op, ast.UAdd) else Unknown()

    def binary(self, op: ast.operator, left: Value, right: Value) -> Value:
        fn = _BINARY.get(type(op))
        return _combine(fn, left, right) if fn else Unknown()

    def compare(self, ops: Sequence[ast.cmpop], values: List[Value]) -> Value:
        if len(ops) != 1 or type(ops[0]) not in _COMPARE:
            return Unknown()
        return _combine(_COMPARE[type(ops[0])], values[0], values[1])

    def subscript(self, owner: Value, key: Value) -> Value:
        if not (isinstance(key, Known) and len(key.values) == 1):
            return Unknown()
        k = next(iter(key.values))
        if isinstance(owner, Mapping):
            return owner.items.get(str(k), Unknown(str(k)))
        if isinstance(owner, Seq) and isinstance(k, int) and -len(owner.items) <= k < len(owner.items):
            return owner.items[k]
        return Unknown()

    def attribute(self, owner: Value, attr: str, node: ast.AST) -> Value:
        if isinstance(owner, Ref):
            return Ref(f"{owner.qualname}.{attr}")
        if isinstance(owner, Opaque):
            return Opaque(f"{owner.qualname}.{attr}")
        if isinstance(owner, Instance):
            if attr in owner.attrs:
                return owner.attrs[attr]
            found = owner.cls.attrs.get(attr)
            if isinstance(found, Func):
                return Func(found.node, found.scope, found.owner, owner)
            return found if found is not None else Opaque(attr)
        if isinstance(owner, ClassV):
            return owner.attrs.get(attr, Unknown(attr))
        if isinstance(owner, Mapping):
            return owner.items.get(attr, Unknown(attr))
        return Unknown(attr)

    # -- calls ---------------------------------------------------------------------------
    def method(self, owner: Value, attr: str, args: Args, node: ast.Call) -> Value:
        it = self.interp
        if isinstance(owner, (Ref, Opaque)):
            callee = self.attribute(owner, attr, node)
            return self.external(callee, args, node)
        if isinstance(owner, Instance):
            return self.instance_method(owner, attr, args, node)
        if isinstance(owner, ClassV):
            found = owner.attrs.get(attr)
            if isinstance(found, Func):
                decorators = {getattr(d, "id", "") for d in found.node.decorator_list}
                bound = owner if "classmethod" in decorators else None
                return it.invoke(Func(found.node, found.scope, found.owner, bound), args, node)
            return it.apply(found, args, node) if found is not None else Unknown()
        if isinstance(owner, Super):
            return self.super_method(owner, attr, args, node)
        if isinstance(owner, Lazy):
            if attr in owner.methods:
                it.start(node, f"{owner.label}.{attr}()")
            return Opaque(attr)
        if isinstance(owner, Loader):
            if attr == "__iter__":
                self.iterate(owner, node)
            return Opaque(attr)
        if isinstance(owner, Trainer):
            return self.trainer(owner, attr, args, node)
        if isinstance(owner, Parser):
            return self.parser(owner, attr, args, node)
        if isinstance(owner, Mapping):
            return self.mapping(owner, attr, args)
        return self.external(Opaque(attr), args, node)

    def instance_method(self, owner: Instance, attr: str, args: Args, node: ast.Call) -> Value:
        it = self.interp
        if attr in owner.attrs:  # a callable stored on the instance
            return it.apply(owner.attrs[attr], args, node)
        found = owner.cls.attrs.get(attr)
        if isinstance(found, Func):
            return it.invoke(Func(found.node, found.scope, found.owner, owner), args, node)
        base = owner.attrs.get(_BASE)
        if isinstance(base, (Lazy, Loader)):
            return self.method(base, attr, args, node)
        spawner = self.spawner_of(owner.cls)
        if spawner is not None and attr in spawner.starts_on:
            it.start(node, f"{owner.cls.node.name}.{attr}()")
            return Opaque(attr)
        return self.external(Opaque(attr), args, node)

    def super_method(self, owner: Super, attr: str, args: Args, node: ast.Call) -> Value:
        it = self.interp
        cls = owner.cls
        for parent in cls.parents if cls else ():
            found = parent.attrs.get(attr)
            if isinstance(found, Func):
                return it.invoke(Func(found.node, found.scope, found.owner, owner.instance), args, node)
        if attr == "__init__" and cls is not None and isinstance(owner.instance, Instance):
            for base in cls.bases:
                built = self.external(Ref(base), args, node)
                if isinstance(built, (Lazy, Loader)):
                    owner.instance.attrs[_BASE] = built
        return Opaque(attr)

    def spawner_of(self, cls: ClassV) -> Optional[Spawner]:
        for base in cls.bases:
            found = self.apis.spawner(base)
            if found is not None:
                return found
        return None

    def instantiate(self, cls: ClassV, args: Args, node: ast.AST) -> Value:
        inst = Instance(cls)
        init = cls.attrs.get("__init__")
        if isinstance(init, Func):
            self.interp.invoke(Func(init.node, init.scope, init.owner, inst), args, node)
        elif cls.bases:
            built = self.external(Ref(cls.bases[0]), args, node)
            if isinstance(built, (Lazy, Loader)):
                inst.attrs[_BASE] = built
        return inst

    def external(self, callee: Value, args: Args, node: ast.AST) -> Value:
        """A call to code outside the file (or to an unknown value)."""
        it = self.interp
        if isinstance(callee, (Func, ClassV, Partial)):
            return it.apply(callee, args, node)
        if isinstance(callee, Lazy):
            if "__call__" in callee.methods:
                it.start(node, f"{callee.label}(...)")
            return Opaque()
        q = callee.qualname if isinstance(callee, (Ref, Opaque)) else ""
        short = q.rsplit(".", 1)[-1]
        flow, first = self.flow, (args.args[0] if args.args else Unknown())
        spawner = self.apis.spawner(q)
        if spawner is not None:
            return self.spawn(spawner, q, args, node)
        if q in self.apis.dataloaders:
            return self.loader(short, args, node)
        if q in self.apis.trainer.names:
            return Trainer(short)
        if q.endswith(".get_context") and q.split(".")[0] in ("multiprocessing", "torch"):
            return Ref(q[: -len(".get_context")])
        if q in flow.partial:
            rest = Args(args.args[1:], args.kwargs, args.texts, args.star_args, args.star_kwargs)
            return Partial(first, rest)
        if q in flow.argparse:
            return Parser()
        if q in flow.configs:
            return self.config(args)
        if q in flow.cpu_counts:
            return known(flow.assumed_cpus)
        if q in flow.env_reads:
            return args.args[1] if len(args.args) > 1 else args.kwargs.get("default", known(None))
        if q in flow.exits:
            from dldoctor.lint.interp import Exit

            if not it.stack:
                raise Exit()
            return Unknown()
        if q in flow.consumers:
            self.iterate(first, node)
            return self.builtin(short, args)
        if q in flow.wrappers:
            return Wrapped(tuple(args.values()))
        if q in flow.inert or short in flow.inert_methods:
            return self.builtin(short, args)
        if short in flow.passthrough_methods:
            values = args.args
            return values[0] if len(values) == 1 else Seq(tuple(values))
        for value in args.values():
            for held in _loaders(value):
                self.hand_over(held, f"{short or 'a call'}()", node)
        return self.builtin(short, args) if q.startswith("builtins.") else Opaque(q)

    def builtin(self, name: str, args: Args) -> Value:
        values = args.args
        if name in ("int", "float", "round", "abs", "bool") and len(values) == 1:
            fn: Dict[str, Callable[[Any], Any]] = {
                "int": int, "float": float, "round": round, "abs": abs, "bool": bool
            }
            return _map1(fn[name], values[0])
        if name in ("min", "max") and len(values) > 1 and all(isinstance(v, Known) for v in values):
            pick = min if name == "min" else max
            out: Value = values[0]
            for v in values[1:]:
                out = _combine(pick, out, v)
            return out
        if name == "vars" and values and isinstance(values[0], Mapping):
            return values[0]
        if name in ("list", "tuple") and values and isinstance(values[0], Seq):
            return values[0]
        return Unknown(name)

    # -- the process starts --------------------------------------------------------------
    def spawn(self, spawner: Spawner, q: str, args: Args, node: ast.AST) -> Value:
        short = q.rsplit(".", 1)[-1]
        for keyword, wanted in spawner.when:
            value = args.kwargs.get(keyword)
            if not (isinstance(value, Known) and value.values & wanted):
                return Opaque(q)
        if spawner.lazy:
            return Lazy(short, spawner.starts_on, getattr(node, "lineno", 0))
        unresolved = ""
        if spawner.count is not None:
            keyword, position, default = spawner.count
            value = args.get(keyword, position)
            counts = ints(value if value is not None else known(default))
            if counts is not None and max(counts, default=0) <= 0:
                return Opaque(q)
            unresolved = f"{keyword}={args.text(keyword, position)}" if counts is None else ""
        self.interp.start(node, f"{short}()", unresolved)
        return Opaque(q)

    def loader(self, name: str, args: Args, node: ast.AST) -> Loader:
        position = self.apis.num_workers_position
        value = args.get("num_workers", position)
        text = args.text("num_workers", position)
        if value is None:
            opaque = [m for m in args.star_kwargs if not (isinstance(m, Mapping) and m.complete)]
            if opaque or (args.star_args and len(args.args) <= position):
                value, text = Unknown(), "**" + args.texts.get("**", "kwargs")
            else:
                value, text = known(0), "0"
        label = f"{name}(num_workers={text})"
        return Loader(label, value, getattr(node, "lineno", 0))

    def iterate(self, value: Value, site: ast.AST) -> None:
        """``value`` is iterated at ``site``: a DataLoader with workers starts them."""
        from dldoctor.lint.interp import Generator

        if isinstance(value, Loader):
            self.loader_starts(value, f"iterating {value.label}", site)
        elif isinstance(value, Wrapped):
            for inner in value.inner:
                self.iterate(inner, site)
        elif isinstance(value, Generator):
            self.interp.iter_generator(value)
        elif isinstance(value, Instance):
            base = value.attrs.get(_BASE)
            hook = value.cls.attrs.get("__iter__")
            if isinstance(base, Loader):
                self.iterate(base, site)
            elif isinstance(hook, Func):
                func = Func(hook.node, hook.scope, hook.owner, value)
                self.iterate(self.interp.invoke(func, Args([], {}, {}), site), site)

    def hand_over(self, value: Value, callee: str, site: ast.AST) -> None:
        """A DataLoader given to code outside the file: taken to be iterated there."""
        if isinstance(value, Instance):
            value = value.attrs.get(_BASE, value)
        if isinstance(value, Loader):
            self.loader_starts(value, f"{callee} over {value.label}", site)
        elif isinstance(value, Wrapped):
            for inner in value.inner:
                self.hand_over(inner, callee, site)

    def loader_starts(self, loader: Loader, label: str, site: ast.AST) -> None:
        counts = ints(loader.workers)
        if counts is None:
            text = loader.label[loader.label.index("(") + 1 : -1]
            self.interp.start(site, label, unresolved=text)
        elif max(counts, default=0) > 0:
            self.interp.start(site, label)

    # -- libraries that hold values ------------------------------------------------------
    def trainer(self, owner: Trainer, attr: str, args: Args, node: ast.AST) -> Value:
        hooks = self.apis.trainer.hooks(attr)
        if hooks is None:
            return Opaque(attr)
        found: List[Value] = []
        for value in args.values():
            if isinstance(value, Instance) and not isinstance(value.attrs.get(_BASE), Loader):
                found.extend(self.hooks(value, hooks, node))
            else:
                found.extend(_loaders(value))
        for held in found:
            if isinstance(held, Instance):
                held = held.attrs.get(_BASE, held)
            if isinstance(held, Loader):
                self.loader_starts(held, f"{owner.label}.{attr}() over {held.label}", node)
        return Opaque(attr)

    def hooks(self, inst: Instance, hooks: Sequence[str], node: ast.AST) -> List[Value]:
        out: List[Value] = []
        none = Args([], {}, {})
        for name in (*self.apis.trainer.setup, *hooks):
            fn = inst.cls.attrs.get(name)
            if isinstance(fn, Func):
                args = none if name != "setup" else Args([Unknown("stage")], {}, {})
                got = self.interp.invoke(Func(fn.node, fn.scope, fn.owner, inst), args, node)
                if name in hooks:
                    out.extend(_loaders(got))
        return out

    def parser(self, owner: Parser, attr: str, args: Args, node: ast.AST) -> Value:
        if attr in ("add_argument_group", "add_mutually_exclusive_group"):
            return owner
        if attr == "add_argument":
            self.add_argument(owner, args)
        elif attr == "set_defaults":
            owner.defaults.update(args.kwargs)
        elif attr in ("parse_args", "parse_known_args"):
            namespace = Mapping(dict(owner.defaults), complete=True)
            return namespace if attr == "parse_args" else Seq((namespace, Unknown()))
        return Opaque(attr)

    def add_argument(self, owner: Parser, args: Args) -> None:
        flags = [next(iter(a.values)) for a in args.args if isinstance(a, Known) and a.values]
        names = [f for f in flags if isinstance(f, str)]
        dest_v = args.kwargs.get("dest")
        if isinstance(dest_v, Known) and len(dest_v.values) == 1:
            dest = str(next(iter(dest_v.values)))
        else:
            longs = [n for n in names if n.startswith("--")] or names
            if not longs:
                return
            dest = longs[0].lstrip("-").replace("-", "_")
        action = args.kwargs.get("action")
        default = args.kwargs.get("default")
        if default is None and isinstance(action, Known):
            acts = {str(v) for v in action.values}
            default = known(False) if acts == {"store_true"} else known(True) if acts == {"store_false"} else None
        if default is None:
            required = args.kwargs.get("required")
            positional = bool(names) and not names[0].startswith("-")
            unknown = positional or (isinstance(required, Known) and True in required.values)
            default = Unknown(dest) if unknown else known(None)
        kind = args.kwargs.get("type")
        if isinstance(default, Known) and isinstance(kind, Ref) and kind.qualname == "builtins.int":
            default = _map1(lambda x: int(x) if isinstance(x, str) else x, default)
        owner.defaults[dest] = default

    def config(self, args: Args) -> Value:
        items: Dict[str, Value] = {}
        complete = not args.star_args
        for value in [*args.args, *args.star_kwargs]:
            if isinstance(value, Mapping):
                items.update(value.items)
                complete = complete and value.complete
            else:
                complete = False
        items.update(args.kwargs)
        return Mapping(items, complete)

    def mapping(self, owner: Mapping, attr: str, args: Args) -> Value:
        values = args.args
        if attr == "get" and values and isinstance(values[0], Known) and len(values[0].values) == 1:
            key = str(next(iter(values[0].values)))
            if key in owner.items:
                return owner.items[key]
            default = values[1] if len(values) > 1 else known(None)
            return default if owner.complete else join([default, Unknown(key)])
        if attr == "copy":
            return Mapping(dict(owner.items), owner.complete)
        if attr == "update":
            for value in [*values, *args.star_kwargs]:
                if isinstance(value, Mapping):
                    owner.items.update(value.items)
                else:
                    owner.complete = False
            owner.items.update(args.kwargs)
        return Opaque(attr)
