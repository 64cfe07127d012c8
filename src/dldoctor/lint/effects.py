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

Only what decides a start lives here; plain data (``max(1, cpus // 2)``) is
:mod:`dldoctor.lint.operators`, settings holders (argparse, config objects, dict methods) are
:mod:`dldoctor.lint.configs`, and running same-file code is :mod:`dldoctor.lint.frames`.
"""

from __future__ import annotations

import ast
from typing import List, Optional, Sequence

from dldoctor.lint import configs
from dldoctor.lint.data import Flow, Spawner, apis
from dldoctor.lint.frames import CallStack, Exit, Generator
from dldoctor.lint.operators import builtin
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
    known,
)

_BASE = "<base>"  # an instance attribute: what super().__init__ of an external base built


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
    """Library calls, methods and attributes, for one walk: records starts on its call stack."""

    def __init__(self, interp: CallStack) -> None:
        self.interp = interp
        self.apis = apis()
        flow = self.apis.flow
        assert flow is not None
        self.flow: Flow = flow

    # -- attributes and calls ------------------------------------------------------------
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
            return configs.parser_method(owner, attr, args)
        if isinstance(owner, Mapping):
            return configs.mapping_method(owner, attr, args)
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
            return configs.config(args)
        if q in flow.cpu_counts:
            return known(flow.assumed_cpus)
        if q in flow.env_reads:
            return args.args[1] if len(args.args) > 1 else args.kwargs.get("default", known(None))
        if q in flow.exits:
            if not it.stack:
                raise Exit()
            return Unknown()
        if q in flow.consumers:
            self.iterate(first, node)
            return builtin(short, args)
        if q in flow.wrappers:
            return Wrapped(tuple(args.values()))
        if q in flow.inert or short in flow.inert_methods:
            return builtin(short, args)
        if short in flow.passthrough_methods:
            values = args.args
            return values[0] if len(values) == 1 else Seq(tuple(values))
        for value in args.values():
            for held in _loaders(value):
                self.hand_over(held, f"{short or 'a call'}()", node)
        return builtin(short, args) if q.startswith("builtins.") else Opaque(q)

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

    # -- trainers -------------------------------------------------------------------------
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
