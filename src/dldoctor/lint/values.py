"""Abstract values of the main-guard interpreter: what a name may hold when a script runs.

The main-guard rule asks "does running this script start worker processes before the
``__main__`` guard?". Answering it needs a little of the script's data: how many workers a
DataLoader gets (a literal, a constant, an argparse default, a dict unpacked with ``**``, a
helper's parameter), which objects are lazy (a DataLoader, a Process, a ProcessPoolExecutor
start nothing until iterated, started or submitted to) and which instance of a same-file
class holds them. These classes are those values; anything the file does not determine is
:class:`Unknown` and is said to be unresolved, never guessed.

A :class:`Known` holds every value an expression may have: ``0 if os.name == "nt" else 4``
is ``{0, 4}`` (the platform is not known statically), and a DataLoader starts workers when
any of its possible counts is above 0 (macOS takes the ``4`` and spawns).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple, Union

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


class Value:
    """Base of every abstract value."""


@dataclass(eq=False)
class Unknown(Value):
    text: str = ""  # the source it came from, for "num_workers=cfg.w could not be resolved"


@dataclass(eq=False)
class Known(Value):
    """Plain Python data (ints, strings, bools, None): every value it may have."""

    values: FrozenSet[object]


@dataclass(eq=False)
class Seq(Value):
    """A tuple or list of values (``loaders = [train, val]``; a function returning two)."""

    items: Tuple[Value, ...]


@dataclass(eq=False)
class Mapping(Value):
    """A dict literal, ``dict(...)``, ``vars(args)``, an argparse Namespace, a config object.

    Attribute and item access read the same keys: EasyDict / OmegaConf / SimpleNamespace
    configs built from literals are read alike. ``complete``: keys not listed are absent.
    """

    items: Dict[str, Value]
    complete: bool = True


@dataclass(eq=False)
class Parser(Value):
    """An ``argparse.ArgumentParser``: each option's default, by its ``dest``."""

    defaults: Dict[str, Value] = field(default_factory=dict)


@dataclass(eq=False)
class Ref(Value):
    """A module or a name imported from one (``multiprocessing``, ``torch.utils.data``)."""

    qualname: str


@dataclass(eq=False)
class Opaque(Value):
    """The result of a call into another module that is none of the known APIs."""

    qualname: str = ""


@dataclass(eq=False)
class Func(Value):
    """A function defined in the file, with the scope it was defined in (closures)."""

    node: FunctionNode
    scope: Scope
    owner: Optional[ClassV] = None  # for display: Trainer.fit
    self_value: Optional[Value] = None  # a bound method


@dataclass(eq=False)
class ClassV(Value):
    """A class defined in the file: its methods, class attributes and known bases."""

    node: ast.ClassDef
    scope: Scope
    attrs: Dict[str, Value] = field(default_factory=dict)
    bases: Tuple[str, ...] = ()  # qualified names of external bases (torch...DataLoader)
    parents: Tuple[ClassV, ...] = ()  # same-file bases, for super()

    def method(self, name: str) -> Optional[Func]:
        got = self.attrs.get(name)
        return got if isinstance(got, Func) else None


@dataclass(eq=False)
class Instance(Value):
    cls: ClassV
    attrs: Dict[str, Value] = field(default_factory=dict)


@dataclass(eq=False)
class Super(Value):
    """``super()`` inside a method of ``cls`` called on ``instance``."""

    instance: Value
    cls: Optional[ClassV]


@dataclass(eq=False)
class Loader(Value):
    """A DataLoader: starts ``workers`` processes each time it is iterated."""

    label: str  # "DataLoader(num_workers=4)"
    workers: Value  # Known ints, or Unknown
    line: int  # where it was built


@dataclass(eq=False)
class Lazy(Value):
    """A Process (starts on ``start()``) or a ProcessPoolExecutor (on submit / map)."""

    label: str
    methods: FrozenSet[str]
    line: int


@dataclass(eq=False)
class Wrapped(Value):
    """A lazy iterator over other values: ``enumerate(loader)``, ``tqdm(loader)``, zip."""

    inner: Tuple[Value, ...]


@dataclass(eq=False)
class Partial(Value):
    """``functools.partial(DataLoader, num_workers=4)``: the callee and its bound arguments."""

    func: Value
    args: Args


@dataclass(eq=False)
class Trainer(Value):
    """A trainer whose fit / validate / test / predict iterate the loaders given to it."""

    label: str


@dataclass
class Args:
    """A call's arguments, evaluated once in the caller's scope."""

    args: List[Value]
    kwargs: Dict[str, Value]
    texts: Dict[str, str]  # keyword -> source text, "0".."n" for positional ones
    star_args: bool = False
    star_kwargs: Tuple[Value, ...] = ()

    def get(self, name: str, position: Optional[int] = None) -> Optional[Value]:
        if name in self.kwargs:
            return self.kwargs[name]
        if position is not None and position < len(self.args) and not self.star_args:
            return self.args[position]
        for extra in self.star_kwargs:
            if isinstance(extra, Mapping) and name in extra.items:
                return extra.items[name]
        return None

    def text(self, name: str, position: Optional[int] = None) -> str:
        if name in self.texts:
            return self.texts[name]
        return self.texts.get(str(position), "") if position is not None else ""

    def values(self) -> List[Value]:
        return [*self.args, *self.kwargs.values(), *self.star_kwargs]


class Scope:
    """Names of one running block: a function's locals over its defining scope, or globals."""

    def __init__(self, parent: Optional[Scope] = None) -> None:
        self.names: Dict[str, Value] = {}
        self.parent = parent
        self.globals: set[str] = set()

    def lookup(self, name: str) -> Optional[Value]:
        scope: Optional[Scope] = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def root(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def bind(self, name: str, value: Value) -> None:
        (self.root() if name in self.globals else self).names[name] = value


def known(value: object) -> Known:
    return Known(frozenset([value]))


def join(values: List[Value]) -> Value:
    """One value for "any of these": ``x = a if c else b``, a function's several returns."""
    values = [v for v in values if v is not None]
    if not values:
        return Unknown()
    if all(isinstance(v, Known) for v in values):
        return Known(frozenset().union(*(v.values for v in values if isinstance(v, Known))))
    if all(isinstance(v, Mapping) for v in values):
        keys = {k for v in values if isinstance(v, Mapping) for k in v.items}
        items: Dict[str, Value] = {}
        for key in keys:
            parts = [v.items.get(key, ABSENT) for v in values if isinstance(v, Mapping)]
            items[key] = join(parts)
        return Mapping(items, all(isinstance(v, Mapping) and v.complete for v in values))
    for v in values:  # what can start processes wins: it is what the rule must not miss
        if isinstance(v, (Loader, Lazy, Instance, Trainer, Seq, Wrapped)):
            return v
    return values[-1]


ABSENT = Known(frozenset(["<absent>"]))  # a key missing from one branch's dict


def ints(value: Value) -> Optional[FrozenSet[int]]:
    """The integer values a Known may have (bools and None as 0), or None when unknown."""
    if not isinstance(value, Known):
        return None
    out = set()
    for v in value.values:
        if v is None or v == "<absent>" or isinstance(v, bool):
            out.add(int(bool(v)) if isinstance(v, bool) else 0)
        elif isinstance(v, int):
            out.add(v)
        elif isinstance(v, float):
            out.add(int(v))
        elif isinstance(v, str):
            try:
                out.add(int(v))
            except ValueError:
                return None
        else:
            return None
    return frozenset(out)


def truth(value: Value) -> Optional[bool]:
    """True / False when every possible value agrees, else None (run both branches)."""
    if isinstance(value, Known):
        seen = {bool(v) for v in value.values}
        return seen.pop() if len(seen) == 1 else None
    if isinstance(value, (Func, ClassV, Loader, Lazy, Trainer, Instance, Ref)):
        return True
    return None
