"""compat.toml: torch's satellites, the releases published together, and the requirements
whose absence breaks an import. Validated at load, so a broken row fails the tests."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Mapping, Optional, Tuple

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.conditions import DataError, load_toml


def _raw() -> Dict[str, Any]:
    return load_toml("compat.toml")


def _strings(row: Mapping[str, Any], keys: Tuple[str, ...], where: str) -> None:
    for key in keys:
        if not isinstance(row.get(key), str) or not row[key]:
            raise DataError(f"compat.toml: {where}: {key!r} must be a non-empty string")


@lru_cache(maxsize=1)
def satellites() -> Dict[str, Dict[str, str]]:
    """Canonical satellite name -> its row (dist, framework, symptom)."""
    out: Dict[str, Dict[str, str]] = {}
    for row in _raw().get("satellite", []):
        _strings(row, ("dist", "framework", "symptom"), f"satellite {row.get('dist')!r}")
        if set(row) - {"dist", "framework", "symptom"}:
            raise DataError(f"compat.toml: satellite {row['dist']!r}: unknown keys")
        out[canonicalize_name(row["dist"])] = dict(row)
    return out


@lru_cache(maxsize=1)
def releases() -> Tuple[Dict[str, str], ...]:
    """One row per torch release: canonical dist name -> the version released with it."""
    out: List[Dict[str, str]] = []
    names = set(satellites()) | {"torch"}
    for row in _raw().get("release", []):
        unknown = {canonicalize_name(k) for k in row} - names
        if unknown or "torch" not in row:
            raise DataError(f"compat.toml: release {row}: needs torch; unknown {sorted(unknown)}")
        for value in row.values():
            try:
                Version(value)
            except (InvalidVersion, TypeError):
                raise DataError(f"compat.toml: release {row}: {value!r} is no version") from None
        out.append({str(canonicalize_name(k)): str(v) for k, v in row.items()})
    return tuple(out)


def release_for(dist: str, version: str) -> Optional[Dict[str, str]]:
    """The release row in which ``dist`` has ``version`` (local labels like +cpu ignored)."""
    name = canonicalize_name(dist)
    try:
        want = Version(Version(version).public)
    except InvalidVersion:
        return None
    return next((r for r in releases() if name in r and Version(r[name]) == want), None)


@dataclass(frozen=True)
class Variant:
    """How a build variant shows in the libraries a satellite needs (compat.toml [variant])."""

    cuda_libraries: Tuple[str, ...]
    torch_libraries: Tuple[re.Pattern[str], ...]
    cudart: Tuple[re.Pattern[str], ...]
    index: str
    index_source: str

    def cuda_major(self, needed: str) -> Optional[int]:
        """The CUDA major a needed CUDA runtime name states (libcudart.so.12 -> 12, cudart64_110.dll -> 11)."""
        for pattern in self.cudart:
            m = pattern.match(needed)
            if m:
                digits = m.group(1)
                return int(digits[:2] if len(digits) >= 3 else digits)
        return None


@lru_cache(maxsize=1)
def variant() -> Variant:
    row = _raw().get("variant")
    if not isinstance(row, dict):
        raise DataError("compat.toml: no [variant] table")
    try:
        return Variant(tuple(row["cuda_libraries"]), tuple(re.compile(p, re.I) for p in row["torch_libraries"]),
                       tuple(re.compile(p, re.I) for p in row["cudart"]),
                       str(row["index"]), str(row["index_source"]))
    except (KeyError, TypeError, re.error) as exc:
        raise DataError(f"compat.toml: [variant]: {exc}") from None


@lru_cache(maxsize=1)
def numpy_scan_names() -> Tuple[re.Pattern[str], ...]:
    """Names of libraries, beside extension modules, that may hold NumPy's import_array()."""
    row = _raw().get("numpy_abi", {})
    try:
        return tuple(re.compile(p, re.I) for p in row.get("also_scan", []))
    except (TypeError, re.error) as exc:
        raise DataError(f"compat.toml: [numpy_abi]: {exc}") from None


@lru_cache(maxsize=1)
def numpy2_releases() -> Dict[str, Tuple[str, str]]:
    """Canonical dist name -> (first release built against NumPy 2, source)."""
    out: Dict[str, Tuple[str, str]] = {}
    for row in _raw().get("numpy2", []):
        _strings(row, ("first", "source"), f"numpy2 {row.get('dists')!r}")
        try:
            Version(row["first"])
        except InvalidVersion:
            raise DataError(f"compat.toml: numpy2 {row['dists']!r}: {row['first']!r} is no version") from None
        for name in row.get("dists", []):
            out[canonicalize_name(name)] = (row["first"], row["source"])
    return out


@lru_cache(maxsize=1)
def critical() -> Tuple[Dict[str, Any], ...]:
    """Requirements whose absence or wrong version breaks an import."""
    out: List[Dict[str, Any]] = []
    for row in _raw().get("critical", []):
        _strings(row, ("requirement", "symptom", "source"), f"critical {row.get('requirement')!r}")
        if not row["source"].startswith("https://"):
            raise DataError(f"compat.toml: critical {row['requirement']!r}: source must be https")
        if row.get("when") not in ("import", "use"):
            raise DataError(f"compat.toml: critical {row['requirement']!r}: when must be import or use")
        by = row.get("required_by")
        if not isinstance(by, list) or not all(isinstance(x, str) for x in by):
            raise DataError(f"compat.toml: critical {row['requirement']!r}: required_by must be a list")
        out.append(dict(row))
    return tuple(out)


def critical_for(requirement: str, required_by: str) -> Optional[Dict[str, Any]]:
    """The critical row for ``required_by``'s requirement on ``requirement``, if any."""
    req = canonicalize_name(requirement)
    by = canonicalize_name(required_by)
    for row in critical():
        if fnmatch.fnmatchcase(req, row["requirement"]) and (
            not row["required_by"] or by in {canonicalize_name(x) for x in row["required_by"]}
        ):
            return row
    return None
