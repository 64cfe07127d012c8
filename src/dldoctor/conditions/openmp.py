"""openmp.toml: which library file names are OpenMP runtimes, and of which family.

One table read by the duplicate-openmp check (libraries a snapshot knows), the probes (the
libraries a child process really loaded) and the wheel-set simulator (DLL names bound in a
virtual process), so predicted and observed findings name the same runtimes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Optional, Pattern, Tuple

from dldoctor.conditions import DataError, load_toml

_HASH = re.compile(r"-[0-9a-f]{8,}(?=\.)")


Table = Tuple[Tuple[str, Tuple[Pattern[str], ...]], ...]


@lru_cache(maxsize=1)
def openmp_table() -> Table:
    """(family, full-match patterns) rows, validated once: a bad pattern fails at load."""
    return parse_openmp(load_toml("openmp.toml"))


def parse_openmp(raw: Mapping[str, Any]) -> Table:
    """Validate an openmp.toml document."""
    if raw.get("schema_version") != 1:
        raise DataError("openmp.toml: schema_version must be 1")
    rows = []
    for item in raw.get("runtime", []):
        name, patterns = item.get("name"), item.get("patterns")
        if not isinstance(name, str) or not name:
            raise DataError("openmp.toml: each [[runtime]] needs a name")
        if not isinstance(patterns, list) or not patterns or not all(isinstance(p, str) for p in patterns):
            raise DataError(f"openmp.toml: {name}: patterns must be a non-empty list of strings")
        try:
            rows.append((name, tuple(re.compile(p) for p in patterns)))
        except re.error as exc:
            raise DataError(f"openmp.toml: {name}: bad pattern ({exc})") from None
    if not rows:
        raise DataError("openmp.toml: no [[runtime]] rows")
    return tuple(rows)


def library_name(path: str) -> str:
    """A file's base name as the table matches it: lower-cased, auditwheel / delvewheel hash removed."""
    base = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return _HASH.sub("", base)


def openmp_runtime(path: str) -> Optional[str]:
    """The OpenMP family (``"GNU libgomp"``, ...) of a library path or name, None if it is none."""
    name = library_name(path)
    for family, patterns in openmp_table():
        if any(p.fullmatch(name) for p in patterns):
            return family
    return None


def family_rank(family: str) -> int:
    """The family's position in the table (a stable order for messages)."""
    return next((i for i, (name, _) in enumerate(openmp_table()) if name == family), len(openmp_table()))
