"""Snapshot values <-> JSON data: dataclasses to plain values and back, checking types.

Snapshots travel between machines and dldoctor versions, so reading one checks every value
against the dataclass annotations (a ValueError names the path, e.g. ``snapshot.host.gpu``),
ignores unknown keys and lets missing keys take their defaults.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Dict, Mapping, Tuple, Type, TypeVar, Union, cast, get_type_hints

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
    return _convert(tp, value, "snapshot")  # type: ignore[no-any-return]


def _convert(tp: Any, value: Any, where: str) -> Any:
    origin = getattr(tp, "__origin__", None)
    args: Tuple[Any, ...] = tuple(getattr(tp, "__args__", ()))
    if tp is Any:
        return value
    if origin is Union:
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(arg, value, where)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError(errors[0] if errors else f"{where}: unexpected null")
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            raise ValueError(f"{where}: expected an object")
        hints = _hints(cast(type, tp))
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in value:
                kwargs[f.name] = _convert(hints[f.name], value[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{where}: missing {f.name!r}")
        return cast(Any, tp)(**kwargs)
    if origin in (tuple, Tuple):
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list")
        return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin in (dict, Dict):
        if not isinstance(value, Mapping):
            raise ValueError(f"{where}: expected an object")
        return {str(k): _convert(args[1], v, f"{where}.{k}") for k, v in value.items()}
    if tp is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if tp in (str, int, bool) and type(value) is tp:
        return value
    raise ValueError(f"{where}: expected {getattr(tp, '__name__', tp)}, got {type(value).__name__}")
