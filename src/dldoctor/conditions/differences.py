"""differences.toml: how much each kind of difference between two machines weighs.

`diff` and `fleet` classify what differs (a framework build, a library resolved from
elsewhere, an environment variable); the weight of each kind, and of each loader-steering
variable and notable package, is data read here, so re-weighing is an edit of the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Mapping, Optional, Pattern, Tuple

from dldoctor.conditions import DataError, load_toml
from dldoctor.model import Severity

_WEIGHTS = {s.label: s for s in Severity}
_KIND_KEYS = {"weight", "label", "why"}
_ROW_KEYS = {"pattern", "weight", "why"}


@dataclass(frozen=True)
class Kind:
    name: str
    weight: Severity
    label: str
    why: str


@dataclass(frozen=True)
class Row:
    """A variable or package row: a full-match pattern and the weight it gives."""

    pattern: Pattern[str]
    weight: Severity
    why: str


@dataclass(frozen=True)
class Weights:
    kinds: Dict[str, Kind]
    variables: Tuple[Row, ...]
    packages: Tuple[Row, ...]

    def kind(self, name: str) -> Kind:
        try:
            return self.kinds[name]
        except KeyError:
            raise DataError(f"differences.toml: no kind {name!r}") from None

    def variable(self, name: str) -> Optional[Row]:
        """The row that weighs environment variable ``name``; None: it is not compared."""
        return next((r for r in self.variables if r.pattern.fullmatch(name)), None)

    def package(self, name: str) -> Optional[Row]:
        return next((r for r in self.packages if r.pattern.fullmatch(name)), None)


@lru_cache(maxsize=1)
def weights() -> Weights:
    return parse_weights(load_toml("differences.toml"))


def _weight(where: str, value: Any) -> Severity:
    if value not in _WEIGHTS:
        raise DataError(f"differences.toml: {where}: weight must be one of {', '.join(_WEIGHTS)}, not {value!r}")
    return _WEIGHTS[value]


def _text(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"differences.toml: {where}: {key} must be a non-empty string")
    return value


def _rows(raw: Any, table: str) -> Tuple[Row, ...]:
    if not isinstance(raw, list):
        raise DataError(f"differences.toml: [[{table}]] must be an array of tables")
    rows = []
    for i, item in enumerate(raw):
        where = f"[[{table}]] #{i + 1}"
        if not isinstance(item, dict) or set(item) != _ROW_KEYS:
            raise DataError(f"differences.toml: {where}: keys must be exactly {sorted(_ROW_KEYS)}")
        try:
            pattern = re.compile(_text(where, "pattern", item["pattern"]))
        except re.error as exc:
            raise DataError(f"differences.toml: {where}: bad pattern ({exc})") from None
        rows.append(Row(pattern, _weight(where, item["weight"]), _text(where, "why", item["why"])))
    return tuple(rows)


def parse_weights(raw: Mapping[str, Any]) -> Weights:
    """Validate a differences.toml document (every key, every type) and build the tables."""
    if raw.get("schema_version") != 1:
        raise DataError("differences.toml: schema_version must be 1")
    unknown = set(raw) - {"schema_version", "kind", "variable", "package"}
    if unknown:
        raise DataError(f"differences.toml: unknown keys {sorted(unknown)}")
    kinds: Dict[str, Kind] = {}
    for name, item in dict(raw.get("kind", {})).items():
        if not isinstance(item, dict) or set(item) != _KIND_KEYS:
            raise DataError(f"differences.toml: [kind.{name}]: keys must be exactly {sorted(_KIND_KEYS)}")
        kinds[name] = Kind(name, _weight(f"kind.{name}", item["weight"]), _text(name, "label", item["label"]),
                           _text(name, "why", item["why"]))
    missing = sorted(set(KINDS) - set(kinds))
    if missing:
        raise DataError(f"differences.toml: kinds the comparison reports are missing: {', '.join(missing)}")
    extra = sorted(set(kinds) - set(KINDS))
    if extra:
        raise DataError(f"differences.toml: kinds nothing reports: {', '.join(extra)}")
    return Weights(kinds, _rows(raw.get("variable", []), "variable"), _rows(raw.get("package", []), "package"))


# Every kind the comparison (dldoctor.fleet.diff) can report; the table must weigh each.
KINDS = (
    "platform", "python", "python-patch", "environment-kind", "libc", "driver-presence", "driver", "gpu",
    "framework-presence", "framework-version", "framework-build", "package", "library-missing",
    "library-source", "library-copy", "variable", "finding",
)
