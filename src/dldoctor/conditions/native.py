"""native.toml: the file-name facts the native-library checks match libraries against
(which folders hold libraries something else loads, which names are extension modules, which
names the interpreter itself provides). Validated once, so a typo in a pattern fails at load."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Pattern, Tuple

from dldoctor.conditions import load_toml


@dataclass(frozen=True)
class NativeData:
    library_folders: Tuple[str, ...]
    library_folder_suffixes: Tuple[str, ...]
    extension: Tuple[Pattern[str], ...]
    interpreter_provided: Tuple[Pattern[str], ...]
    optional_plugins: Tuple[Pattern[str], ...] = ()
    nvidia_libraries: Tuple[Pattern[str], ...] = ()
    nvidia_driver_libraries: Tuple[Pattern[str], ...] = ()
    plugin_prefix: str = "lib"
    essential_plugin_folders: Tuple[str, ...] = ()
    fallback_extensions: Tuple[FallbackExtension, ...] = ()


@dataclass(frozen=True)
class FallbackExtension:
    """An extension module its package imports in try/except and replaces when it fails."""

    dist: str
    pattern: Pattern[str]
    fallback: str
    source: str


def _fallbacks(raw: Dict[str, Any]) -> Tuple[FallbackExtension, ...]:
    out = []
    for row in raw.get("fallback_extension", []):
        if not all(isinstance(row.get(k), str) and row[k] for k in ("dist", "pattern", "fallback", "source")):
            raise ValueError("native.toml: each [[fallback_extension]] needs dist, pattern, fallback, source")
        out.append(FallbackExtension(row["dist"], re.compile(row["pattern"], re.I), row["fallback"], row["source"]))
    return tuple(out)


def _strs(raw: Dict[str, Any], key: str) -> Tuple[str, ...]:
    value = raw.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"native.toml: {key!r} must be a list of strings")
    return tuple(value)


@lru_cache(maxsize=1)
def native_data() -> NativeData:
    """native.toml, validated once (a typo in a pattern fails at load, not mid-check)."""
    raw = load_toml("native.toml")
    return NativeData(
        library_folders=_strs(raw, "library_folders"),
        library_folder_suffixes=_strs(raw, "library_folder_suffixes"),
        extension=tuple(re.compile(p, re.I) for p in _strs(raw, "extension_patterns")),
        interpreter_provided=tuple(re.compile(p) for p in _strs(raw, "interpreter_provided")),
        optional_plugins=tuple(re.compile(p, re.I) for p in _strs(raw, "optional_plugins")),
        nvidia_libraries=tuple(re.compile(p, re.I) for p in _strs(raw, "nvidia_libraries")),
        nvidia_driver_libraries=tuple(re.compile(p, re.I) for p in _strs(raw, "nvidia_driver_libraries")),
        plugin_prefix=str(raw.get("plugin_prefix", "lib")),
        essential_plugin_folders=_strs(raw, "essential_plugin_folders"),
        fallback_extensions=_fallbacks(raw),
    )
