"""Snapshot values <-> JSON data: dataclasses to plain values and back, checking types.

Snapshots travel between machines and dldoctor versions, so reading one checks every value
against the dataclass annotations (a ValueError names the path, e.g. ``snapshot.host.gpu``),
ignores unknown keys and lets missing keys take their defaults.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Type, TypeVar, Union, cast, get_type_hints

T = TypeVar("T")


def to_jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


_HINTS: Dict[type, Dict[str, Any]] = {}


def _hints(cls: type) -> Dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls, vars(sys.modules[cls.__module__]))
    return _HINTS[cls]


def from_jsonable(tp: Type[T], value: Any) -> T:
    """Build ``tp`` from JSON data, checking types; raises ValueError on a mismatch."""
    try:
        return _converter(tp)(value)  # type: ignore[no-any-return]
    except _Mismatch as exc:
        raise ValueError(exc.message("snapshot")) from None


# Reading is compiled once per type into nested closures (a fleet reads thousands of
# snapshots of ~10,000 values each): no annotation is inspected per value, and the path
# of a value ("snapshot.host.gpu") is only spelled out when it is wrong.
Convert = Callable[[Any], Any]


class _Mismatch(ValueError):
    """A value of the wrong type; ``parts`` is its path below the failing converter's
    caller, innermost first (each enclosing level appends its own part)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
        self.parts: List[str] = []

    def message(self, where: str) -> str:
        return f"{where}{''.join(reversed(self.parts))}: {self.what}"


_CONVERTERS: Dict[Any, Convert] = {}


def _converter(tp: Any) -> Convert:
    try:
        return _CONVERTERS[tp]
    except KeyError:
        pass
    _CONVERTERS[tp] = lambda value: _CONVERTERS[tp](value)  # recursive types: resolved when called
    conv = _CONVERTERS[tp] = _compile(tp)
    return conv


def _identity(value: Any) -> Any:
    return value


def _compile(tp: Any) -> Convert:
    origin = getattr(tp, "__origin__", None)
    args: Tuple[Any, ...] = tuple(getattr(tp, "__args__", ()))
    if tp is Any:
        return _identity
    if origin is Union:
        return _union([_converter(a) for a in args if a is not type(None)], type(None) in args)
    if dataclasses.is_dataclass(tp):
        return _dataclass(cast(type, tp))
    if origin in (tuple, Tuple):
        return _tuple(_converter(args[0]))
    if origin in (dict, Dict):
        return _dict(_converter(args[1]))
    if tp is float:
        return _float
    if tp in (str, int, bool):
        return _exact(tp)
    return _refuse(tp)


def _union(options: List[Convert], nullable: bool) -> Convert:
    exact = _EXACT.get(options[0]) if nullable and len(options) == 1 else None
    if exact is not None:  # Optional[str]: one call, not two
        def optional(value: Any) -> Any:
            if value is None or type(value) is exact:
                return value
            raise _Mismatch(f"expected {exact.__name__}, got {type(value).__name__}")
        return optional

    def convert(value: Any) -> Any:
        if value is None and nullable:
            return None
        first: Optional[_Mismatch] = None
        for option in options:
            try:
                return option(value)
            except _Mismatch as exc:
                first = first or exc
        raise first or _Mismatch("unexpected null")
    return convert


def _dataclass(cls: type) -> Convert:
    hints = _hints(cls)
    fields = [(f.name, _converter(hints[f.name]), f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING) for f in dataclasses.fields(cls)]
    exact = {name: _EXACT[conv] for name, conv, _ in fields if conv in _EXACT}

    def convert(value: Any) -> Any:
        if type(value) is not dict and not isinstance(value, Mapping):  # the ABC check is slow
            raise _Mismatch("expected an object")
        kwargs = {}
        for name, conv, required in fields:
            if name in value:
                got = value[name]
                if type(got) is exact.get(name):  # a str field holding a str: no call
                    kwargs[name] = got
                    continue
                try:
                    kwargs[name] = conv(got)
                except _Mismatch as exc:
                    exc.parts.append(f".{name}")
                    raise
            elif required:
                raise _Mismatch(f"missing {name!r}")
        return cls(**kwargs)
    return convert


def _tuple(item: Convert) -> Convert:
    exact = _EXACT.get(item)

    def convert(value: Any) -> Any:
        if not isinstance(value, list):
            raise _Mismatch("expected a list")
        if exact is not None and set(map(type, value)) <= {exact}:  # a list of strings: checked in C
            return tuple(value)
        try:
            return tuple(map(item, value))
        except _Mismatch as exc:
            index = next(i for i, v in enumerate(value) if _fails(item, v))
            exc.parts.append(f"[{index}]")
            raise
    return convert


def _fails(conv: Convert, value: Any) -> bool:
    try:
        conv(value)
    except _Mismatch:
        return True
    return False


def _dict(item: Convert) -> Convert:
    exact = _EXACT.get(item)

    def convert(value: Any) -> Any:
        if type(value) is not dict and not isinstance(value, Mapping):  # the ABC check is slow
            raise _Mismatch("expected an object")
        if item is _identity or (exact is not None and set(map(type, value.values())) <= {exact}):
            return dict(zip(map(str, value), value.values()))
        out = {}
        for k, v in value.items():
            try:
                out[str(k)] = item(v)
            except _Mismatch as exc:
                exc.parts.append(f".{k}")
                raise
        return out
    return convert


def _float(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise _Mismatch(f"expected float, got {type(value).__name__}")


def _exact(tp: type) -> Convert:
    def convert(value: Any) -> Any:
        if type(value) is tp:
            return value
        raise _Mismatch(f"expected {tp.__name__}, got {type(value).__name__}")
    _EXACT[convert] = tp
    return convert


_EXACT: Dict[Convert, type] = {}  # converters that accept exactly one type, as is


def _refuse(tp: Any) -> Convert:
    def convert(value: Any) -> Any:
        raise _Mismatch(f"expected {getattr(tp, '__name__', tp)}, got {type(value).__name__}")
    return convert
