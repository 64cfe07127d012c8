"""The condition knowledge base: load, validate, look up.

The data lives in ``conditions.toml`` so that checks, ``explain``, ``rules`` and the
generated docs all speak of one set of conditions. The schema is enforced here at load
(a broken data file must fail loudly in tests, not mislead users at run time).
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Mapping, Tuple

from dldoctor.errors import DataError as DataError  # re-exported: loaders raise it
from dldoctor.model import Condition, Fix, Reference, Severity

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.8-3.10
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

DATA_DIR = Path(__file__).parent
PLATFORMS = ("windows", "linux", "macos")
_CODE = re.compile(r"^DLD\d{3}$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REQUIRED = {
    "code": str,
    "slug": str,
    "title": str,
    "severity": str,
    "platforms": list,
    "summary": str,
    "why": str,
    "example": str,
    "fixes": list,
    "references": list,
    "confirm": str,
}
_OPTIONAL = {"seeds": list}


def load_toml(name: str, folder: Path = DATA_DIR) -> Dict[str, Any]:
    """Read one of the package's TOML data files (by default from this folder)."""
    with (folder / name).open("rb") as fh:
        data: Dict[str, Any] = tomllib.load(fh)
    return data


def parse_condition(raw: Mapping[str, Any]) -> Condition:
    """Validate one ``[[condition]]`` table and build the Condition."""
    where = raw.get("slug") or raw.get("code") or "?"
    for key, typ in _REQUIRED.items():
        if key not in raw:
            raise DataError(f"condition {where}: missing key {key!r}")
        if not isinstance(raw[key], typ):
            raise DataError(f"condition {where}: {key!r} must be {typ.__name__}")
    for key, typ in _OPTIONAL.items():
        if key in raw and not isinstance(raw[key], typ):
            raise DataError(f"condition {where}: {key!r} must be {typ.__name__}")
    unknown = set(raw) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise DataError(f"condition {where}: unknown keys {sorted(unknown)}")
    if not _CODE.match(raw["code"]):
        raise DataError(f"condition {where}: code must look like DLD001")
    if not _SLUG.match(raw["slug"]):
        raise DataError(f"condition {where}: slug must be kebab-case")
    try:
        severity = Severity[raw["severity"].upper()]
    except KeyError:
        raise DataError(f"condition {where}: unknown severity {raw['severity']!r}") from None
    platforms = tuple(raw["platforms"])
    if not platforms or not set(platforms) <= set(PLATFORMS):
        raise DataError(f"condition {where}: platforms must be a subset of {PLATFORMS}")
    if not raw["fixes"] or not raw["references"]:
        raise DataError(f"condition {where}: needs at least one fix and one reference")
    fixes: List[Fix] = []
    for fx in raw["fixes"]:
        if not isinstance(fx, dict) or not isinstance(fx.get("text"), str):
            raise DataError(f"condition {where}: each fix needs a text")
        fplat = tuple(fx.get("platforms", ["any"]))
        if not set(fplat) <= {*PLATFORMS, "any"}:
            raise DataError(f"condition {where}: bad fix platforms {fplat}")
        fixes.append(Fix(fx["text"], fplat))
    refs: List[Reference] = []
    for ref in raw["references"]:
        if not isinstance(ref, dict) or not str(ref.get("url", "")).startswith("https://"):
            raise DataError(f"condition {where}: each reference needs an https url")
        refs.append(Reference(str(ref.get("title", ref["url"])), ref["url"]))
    return Condition(
        code=raw["code"],
        slug=raw["slug"],
        title=raw["title"],
        severity=severity,
        platforms=platforms,
        summary=raw["summary"].strip(),
        why=raw["why"].strip(),
        example=raw["example"].strip("\n"),
        fixes=tuple(fixes),
        references=tuple(refs),
        confirm=raw["confirm"].strip(),
        seeds=tuple(raw.get("seeds", ())),
    )


def parse_conditions(data: Mapping[str, Any]) -> Tuple[Condition, ...]:
    """Validate a whole conditions document: schema, unique codes and slugs."""
    if data.get("schema_version") != 1:
        raise DataError("conditions: schema_version must be 1")
    raw_list = data.get("condition")
    if not isinstance(raw_list, list) or not raw_list:
        raise DataError("conditions: no [[condition]] tables")
    out = tuple(parse_condition(r) for r in raw_list)
    for attr in ("code", "slug"):
        seen: Dict[str, int] = {}
        for c in out:
            key = getattr(c, attr)
            if key in seen:
                raise DataError(f"conditions: duplicate {attr} {key}")
            seen[key] = 1
    return out


@lru_cache(maxsize=1)
def all_conditions() -> Tuple[Condition, ...]:
    """Every known condition, in code order."""
    return tuple(sorted(parse_conditions(load_toml("conditions.toml")), key=lambda c: c.code))


@lru_cache(maxsize=1)
def _index() -> Dict[str, Condition]:
    idx: Dict[str, Condition] = {}
    for c in all_conditions():
        idx[c.code.lower()] = c
        idx[c.slug] = c
    return idx


def get(code_or_slug: str) -> Condition:
    """Look a condition up by code (any case) or slug; KeyError when unknown."""
    try:
        return _index()[code_or_slug.strip().lower()]
    except KeyError:
        raise KeyError(code_or_slug) from None


def exists(code_or_slug: str) -> bool:
    return code_or_slug.strip().lower() in _index()


def version_key(version: str) -> Tuple[int, ...]:
    """``"550.54.14"`` -> ``(550, 54, 14)``, ``"14.40.33810.0"`` -> ``(14, 40, 33810, 0)``: the one
    comparison key for driver and DLL file versions (not PEP 440: drivers and Windows file
    versions are dotted numbers; a part without leading digits ends the key)."""
    out = []
    for part in version.strip().split("."):
        digits = re.match(r"\d+", part)
        if not digits:
            break
        out.append(int(digits.group()))
    return tuple(out)
