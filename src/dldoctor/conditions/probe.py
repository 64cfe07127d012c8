"""The probes' data files, validated at load (a broken table must fail in tests, loudly).

``probe.toml``: which modules the order probe pairs, NTSTATUS names (OpenMP runtimes:
:mod:`dldoctor.conditions.openmp`).
``cuda_drivers.toml``: CUDA runtime version -> minimum driver, from NVIDIA's release notes;
:func:`arch_supported`: CUDA's binary-compatibility rule for a build's arch list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from dldoctor.conditions import DataError, load_toml, version_key

DATA = Path(__file__).parent
_DRIVER = re.compile(r"^\d+(\.\d+){1,2}$")
_CUDA = re.compile(r"^\d+\.\d+$")


@dataclass(frozen=True)
class ProbeData:
    frameworks: Tuple[str, ...]
    troublemakers: Tuple[str, ...]
    ntstatus: Dict[int, str]


@dataclass(frozen=True)
class DriverTable:
    toolkit: Tuple[Tuple[str, str, str], ...]  # (cuda "12.4", linux min, windows min)
    minor_compat: Dict[int, Tuple[str, str]]  # major -> (linux min, windows min)
    source: str


def _load(name: str) -> Dict[str, Any]:
    return load_toml(name, DATA)


def _str_list(raw: Mapping[str, Any], key: str, where: str) -> Tuple[str, ...]:
    value = raw.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise DataError(f"{where}: {key!r} must be a list of names")
    return tuple(value)


def parse_probe_data(raw: Mapping[str, Any]) -> ProbeData:
    if raw.get("schema_version") != 1:
        raise DataError("probe.toml: schema_version must be 1")
    order = raw.get("order")
    if not isinstance(order, dict):
        raise DataError("probe.toml: missing [order]")
    ntstatus: Dict[int, str] = {}
    for item in raw.get("ntstatus", []):
        code, name = item.get("code"), item.get("name")
        if not isinstance(code, int) or not isinstance(name, str) or not 0 < code < 2**32:
            raise DataError(f"probe.toml: bad [[ntstatus]] {item!r}")
        ntstatus[code] = name
    if not ntstatus:
        raise DataError("probe.toml: needs [[ntstatus]] rows")
    return ProbeData(_str_list(order, "frameworks", "probe.toml [order]"),
                     _str_list(order, "troublemakers", "probe.toml [order]"), ntstatus)


def parse_driver_table(raw: Mapping[str, Any]) -> DriverTable:
    if raw.get("schema_version") != 1 or not str(raw.get("source", "")).startswith("https://"):
        raise DataError("cuda_drivers.toml: needs schema_version = 1 and an https source")
    rows = []
    for row in raw.get("toolkit", []):
        cuda, linux, windows = row.get("cuda"), row.get("linux"), row.get("windows")
        if not (isinstance(cuda, str) and _CUDA.match(cuda)):
            raise DataError(f"cuda_drivers.toml: bad cuda version in {row!r}")
        for value in (linux, windows):
            if not (isinstance(value, str) and _DRIVER.match(value)):
                raise DataError(f"cuda_drivers.toml: bad driver version in {row!r}")
        rows.append((cuda, str(linux), str(windows)))
    compat: Dict[int, Tuple[str, str]] = {}
    for row in raw.get("minor_compat", []):
        major, linux, windows = row.get("major"), row.get("linux"), row.get("windows")
        if not isinstance(major, int) or not all(
                isinstance(v, str) and _DRIVER.match(v) for v in (linux, windows)):
            raise DataError(f"cuda_drivers.toml: bad minor_compat row {row!r}")
        compat[major] = (str(linux), str(windows))
    if not rows:
        raise DataError("cuda_drivers.toml: no [[toolkit]] rows")
    if len({r[0] for r in rows}) != len(rows):
        raise DataError("cuda_drivers.toml: duplicate cuda version")
    return DriverTable(tuple(rows), compat, str(raw["source"]))


@lru_cache(maxsize=1)
def probe_data() -> ProbeData:
    return parse_probe_data(_load("probe.toml"))


@lru_cache(maxsize=1)
def driver_table() -> DriverTable:
    return parse_driver_table(_load("cuda_drivers.toml"))


def min_driver(cuda: str, platform: str) -> Tuple[Optional[str], Optional[str]]:
    """(toolkit minimum, minor-compatibility minimum) for a CUDA runtime ``"12.4"``.

    A runtime newer than every row has no known minimum (None): we do not guess.
    """
    key = version_key(cuda)[:2]
    col = 2 if platform == "windows" else 1
    table = driver_table()
    full = next((row[col] for row in table.toolkit if version_key(row[0]) == key), None)
    compat = table.minor_compat.get(key[0]) if key else None
    return full, (compat[col - 1] if compat else None)


def arch_supported(capability: Tuple[int, int], arch_list: Sequence[str]) -> bool:
    """Can a build with ``arch_list`` (torch.cuda.get_arch_list()) run on ``capability``?

    CUDA binary compatibility: a cubin for sm_XY runs on X.Z with Z >= Y (same major); PTX
    for compute_XY is JIT-compiled for any device >= X.Y. Arch-specific cubins (sm_90a,
    sm_100f) run only on their own major. An empty list (unknown) is not held against it.
    """
    if not arch_list:
        return True
    major, minor = capability
    for arch in arch_list:
        m = re.match(r"^(sm|compute)_(\d+?)(\d)([af]?)$", arch.strip())
        if not m:
            continue
        a_major, a_minor, kind = int(m.group(2)), int(m.group(3)), m.group(1)
        if kind == "sm" and a_major == major and a_minor <= minor:
            return True
        if kind == "compute" and not m.group(4) and (a_major, a_minor) <= (major, minor):
            return True
    return False
