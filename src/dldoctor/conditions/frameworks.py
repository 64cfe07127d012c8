"""frameworks.toml: the frameworks dldoctor knows, how to read their build facts, and which
CUDA a build targets.

One table for every layer: the collector reads the version files it names, the snapshot
answers :attr:`~dldoctor.snapshot.model.Framework.cuda` from it, duplicate-install reads the
conda aliases. Validated at load, so a broken row fails the tests, not a user's run.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from packaging.utils import canonicalize_name

from dldoctor.conditions import DataError, load_toml

Value = Union[str, int, float, bool, None]
_FRAMEWORK_KEYS = {"name", "module", "dists", "files", "keys", "cuda_key", "cpu_when"}
_NO_CUDA = (None, False, "False", "", "None", "OFF")


def _raw() -> Dict[str, Any]:
    return load_toml("frameworks.toml")


@lru_cache(maxsize=1)
def framework_table() -> Tuple[Dict[str, Any], ...]:
    """Every ``[[framework]]`` row, validated (the collector receives these as its config)."""
    rows = _raw().get("framework")
    if not isinstance(rows, list) or not rows:
        raise DataError("frameworks.toml: no [[framework]] rows")
    for row in rows:
        where = f"frameworks.toml: framework {row.get('name')!r}"
        unknown = set(row) - _FRAMEWORK_KEYS
        if unknown:
            raise DataError(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("name", "module", "cuda_key"):
            if not isinstance(row.get(key), str):
                raise DataError(f"{where}: {key!r} must be a string")
        for key in ("dists", "files", "keys"):
            if not isinstance(row.get(key), list) or not all(isinstance(v, str) for v in row[key]):
                raise DataError(f"{where}: {key!r} must be a list of strings")
        rule = row.get("cpu_when")
        if rule is not None and not (
            isinstance(rule, dict) and isinstance(rule.get("key"), str) and len(rule) == 2
            and ("is" in rule or isinstance(rule.get("lacks"), str))
        ):
            raise DataError(f"{where}: cpu_when must be {{ key, is }} or {{ key, lacks }}")
    return tuple(dict(r) for r in rows)


@lru_cache(maxsize=1)
def known_importers() -> Tuple[str, ...]:
    """Distributions that import a framework at import time without declaring it."""
    return tuple(_raw().get("known_importers", []))


@lru_cache(maxsize=1)
def conda_names() -> Dict[str, List[str]]:
    """pip name -> conda package names that install the same files (torch is pytorch)."""
    raw = _raw().get("conda_names", {})
    return {canonicalize_name(k): [canonicalize_name(x) for x in v] for k, v in raw.items()}


@lru_cache(maxsize=1)
def _by_name() -> Dict[str, Dict[str, Any]]:
    return {row["name"]: row for row in framework_table()}


def build_cuda(name: str, values: Mapping[str, Value], file: Optional[str]) -> Optional[str]:
    """The CUDA version a framework build targets: a version string, None for a CPU build,
    "" when its files do not say (no version file read, or the table has no key for it)."""
    if file is None and not values:
        return ""
    row = _by_name().get(name, {})
    rule = row.get("cpu_when")
    if rule is not None:
        value = values.get(rule["key"])
        if "is" in rule and value == rule["is"] and type(value) is type(rule["is"]):
            return None
        if "lacks" in rule and rule["lacks"] not in str(value if value is not None else ""):
            return None
    key = row.get("cuda_key", "")
    if not key:
        return ""
    found = values.get(key)
    if found in _NO_CUDA:
        return None
    return str(found)
