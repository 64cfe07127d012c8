"""Plain data in the main-guard interpreter: operators, comparisons, subscripts, conversions.

A worker count is often computed, not written: ``max(1, cpus // 2)``, ``int(os.environ.get(
"W", "4"))``, ``0 if os.name == "nt" else 4``. These functions compute such expressions over
:class:`~dldoctor.lint.values.Known` values, every combination of every possible value. They
know nothing of processes or libraries (that is :mod:`dldoctor.lint.effects`), which is why
they live apart: pure functions of values, no interpreter state.

The script is hostile input: results are kept small (numbers below 10**12, strings below 256
characters, at most 64 combinations) and anything bigger, or any operation that raises, is
:class:`~dldoctor.lint.values.Unknown`, so ``"ab" * 10**11`` is never built.
"""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable, Dict, List, Sequence

from dldoctor.lint.values import Args, Known, Mapping, Seq, Unknown, Value, known

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
_CONVERSIONS: Dict[str, Callable[[Any], Any]] = {
    "int": int, "float": float, "round": round, "abs": abs, "bool": bool
}
_STRING_SAFE = (operator.eq, operator.ne, operator.add, operator.is_, operator.is_not)
_NUMBER = (int, float)


def _small(value: object) -> bool:
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, _NUMBER):
        return abs(value) < 10**12
    return isinstance(value, str) and len(value) < 256


def combine(fn: Callable[[Any, Any], Any], a: Value, b: Value) -> Value:
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


def map1(fn: Callable[[Any], Any], value: Value) -> Value:
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


def unary(op: ast.unaryop, value: Value) -> Value:
    if isinstance(op, ast.Not):
        if isinstance(value, Known):
            return Known(frozenset(not v for v in value.values))
        return Unknown()
    if isinstance(op, ast.USub):
        return combine(operator.sub, known(0), value)
    return value if isinstance(op, ast.UAdd) else Unknown()


def binary(op: ast.operator, left: Value, right: Value) -> Value:
    fn = _BINARY.get(type(op))
    return combine(fn, left, right) if fn else Unknown()


def compare(ops: Sequence[ast.cmpop], values: List[Value]) -> Value:
    if len(ops) != 1 or type(ops[0]) not in _COMPARE:
        return Unknown()
    return combine(_COMPARE[type(ops[0])], values[0], values[1])


def subscript(owner: Value, key: Value) -> Value:
    if not (isinstance(key, Known) and len(key.values) == 1):
        return Unknown()
    k = next(iter(key.values))
    if isinstance(owner, Mapping):
        return owner.items.get(str(k), Unknown(str(k)))
    if isinstance(owner, Seq) and isinstance(k, int) and -len(owner.items) <= k < len(owner.items):
        return owner.items[k]
    return Unknown()


def builtin(name: str, args: Args) -> Value:
    """A builtin called on plain data: ``int(...)``, ``min(...)``, ``vars(args)``, ``list(...)``."""
    values = args.args
    if name in _CONVERSIONS and len(values) == 1:
        return map1(_CONVERSIONS[name], values[0])
    if name in ("min", "max") and len(values) > 1 and all(isinstance(v, Known) for v in values):
        pick = min if name == "min" else max
        out: Value = values[0]
        for v in values[1:]:
            out = combine(pick, out, v)
        return out
    if name == "vars" and values and isinstance(values[0], Mapping):
        return values[0]
    if name in ("list", "tuple") and values and isinstance(values[0], Seq):
        return values[0]
    return Unknown(name)
