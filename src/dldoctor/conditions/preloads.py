"""preloads.toml: what packages do to the native loader at import time, as validated rows.

The data layer only parses and checks the table; :mod:`dldoctor.loader.frameworks` turns a
row into an import plan for a concrete install.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, List, Mapping, Tuple

from dldoctor.conditions import PLATFORMS, DataError, load_toml


@dataclass(frozen=True)
class PackageSteps:
    """One package's own import-time steps on one platform."""

    dist: str
    platform: str
    dll_directories: Tuple[str, ...]
    preload: Tuple[str, ...]
    flags: str
    source: str


@dataclass(frozen=True)
class Convention:
    """A folder layout whose DLL folders a package's __init__.py adds as DLL directories."""

    name: str
    platform: str
    dll_directory_of: Tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Preloads:
    packages: Tuple[PackageSteps, ...]
    conventions: Tuple[Convention, ...]


def _strs(row: Mapping[str, Any], key: str, where: str) -> Tuple[str, ...]:
    value = row.get(key, [])
    value = [value] if isinstance(value, str) else value
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise DataError(f"preloads.toml: {where}: {key} must be a list of strings")
    return tuple(value)


def _common(row: Mapping[str, Any], where: str) -> None:
    if row.get("platform") not in PLATFORMS:
        raise DataError(f"preloads.toml: {where}: platform must be one of {PLATFORMS}")
    if not isinstance(row.get("source"), str) or not row["source"]:
        raise DataError(f"preloads.toml: {where}: needs a source")


def parse_preloads(raw: Mapping[str, Any]) -> Preloads:
    if raw.get("schema_version") != 1:
        raise DataError("preloads.toml: schema_version must be 1")
    packages: List[PackageSteps] = []
    for row in raw.get("package", []):
        where = f"package {row.get('dist')!r}"
        _common(row, where)
        if not isinstance(row.get("dist"), str) or not isinstance(row.get("flags", ""), str):
            raise DataError(f"preloads.toml: {where}: dist and flags must be strings")
        packages.append(PackageSteps(row["dist"], row["platform"], _strs(row, "dll_directories", where),
                                     _strs(row, "preload", where), row.get("flags", ""), row["source"]))
    conventions: List[Convention] = []
    for row in raw.get("convention", []):
        where = f"convention {row.get('name')!r}"
        _common(row, where)
        globs = _strs(row, "dll_directory_of", where)
        if not globs:
            raise DataError(f"preloads.toml: {where}: dll_directory_of is empty")
        conventions.append(Convention(str(row.get("name", "")), row["platform"], globs, row["source"]))
    return Preloads(tuple(packages), tuple(conventions))


@lru_cache(maxsize=1)
def preloads() -> Preloads:
    return parse_preloads(load_toml("preloads.toml"))
