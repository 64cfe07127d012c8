"""openmp.toml: which library file names are OpenMP runtimes, and of which family.

One table read by the duplicate-openmp check (libraries a snapshot knows), the probes (the
libraries a child process really loaded) and the wheel-set simulator (DLL names bound in a
virtual process), so predicted and observed findings name the same runtimes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, FrozenSet, Iterable, Mapping, Optional, Pattern, Tuple

from dldoctor.conditions import DataError, load_toml

_HASH = re.compile(r"-[0-9a-f]{8,}(?=\.)")


Table = Tuple[Tuple[str, Tuple[Pattern[str], ...]], ...]
Clash = Tuple[FrozenSet[str], str]  # (two families, why they break one another)


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


@lru_cache(maxsize=1)
def clash_table() -> Tuple[Clash, ...]:
    """The pairs of runtimes known to break one another (openmp.toml's [[clash]] rows)."""
    return parse_clashes(load_toml("openmp.toml"), {name for name, _ in openmp_table()})


def parse_clashes(raw: Mapping[str, Any], families: Iterable[str]) -> Tuple[Clash, ...]:
    known = set(families)
    out = []
    for item in raw.get("clash", []):
        pair, why = item.get("families"), item.get("why")
        if (not isinstance(pair, list) or len(pair) != 2 or len(set(pair)) != 2
                or not all(isinstance(f, str) and f in known for f in pair)):
            raise DataError(f"openmp.toml: [[clash]] families must be two known runtimes, not {pair!r}")
        if not isinstance(why, str) or not why:
            raise DataError(f"openmp.toml: [[clash]] {pair}: needs a why")
        out.append((frozenset(pair), why))
    return tuple(out)


SIDE_BY_SIDE_FIX = ("Nothing to fix: these runtimes work side by side. If cores are oversubscribed, "
                    "set OMP_NUM_THREADS to the number of physical cores.")


def clash(families: Iterable[str]) -> Optional[str]:
    """Why these runtimes break one another in one process, or None when no pair of them is
    known to (libgomp next to libiomp5: two thread pools that work side by side)."""
    present = set(families)
    return next((why for pair, why in clash_table() if pair <= present), None)


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
