"""Windows data: a stock system's DLLs, the loader's KnownDLLs, the VC++ runtime's needs,
and the thresholds of the Windows host checks.

All live in ``dldoctor/conditions/profiles/`` as data files that say where their lists came
from; they are validated here at load, so a broken file fails the tests, not a user's run.
Read by the Windows loader model, the Windows checks and the wheel-set simulator alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, FrozenSet, Mapping, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from dldoctor.conditions import DataError, load_toml

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
PROFILES = {"win_amd64": "windows-x64.json"}


@dataclass(frozen=True)
class SystemProfile:
    """The DLLs a stock install of one platform provides in its system folder."""

    platform: str
    title: str
    system32: FrozenSet[str]
    driver_dlls: FrozenSet[str]
    api_set_prefixes: Tuple[str, ...]

    def provides(self, name: str) -> bool:
        key = name.lower()
        return key in self.system32 or key.startswith(self.api_set_prefixes)


@dataclass(frozen=True)
class VcMinimum:
    """A framework release that needs at least ``version`` of one runtime DLL."""

    dist: str
    specifier: SpecifierSet
    dll: str
    version: str
    why: str
    sources: Tuple[str, ...]


@dataclass(frozen=True)
class VcRuntime:
    dlls: Tuple[str, ...]
    python_app_dir: FrozenSet[str]
    redist_url: str
    minimums: Tuple[VcMinimum, ...]
    interchangeable_from: str = ""  # copies at or above this version serve each other's binaries


def _strings(raw: Mapping[str, Any], key: str, where: str) -> Tuple[str, ...]:
    value = raw.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v == v.lower() for v in value):
        raise DataError(f"{where}: {key} must be a list of lower-case strings")
    return tuple(value)


@lru_cache(maxsize=4)
def load_profile(platform: str = "win_amd64") -> SystemProfile:
    """The system profile of a wheel platform tag; DataError for an unknown one."""
    if platform not in PROFILES:
        raise DataError(f"no system profile for platform {platform!r} (known: {', '.join(sorted(PROFILES))})")
    where = PROFILES[platform]
    raw: Dict[str, Any] = json.loads((PROFILE_DIR / where).read_text(encoding="utf-8"))
    if raw.get("schema") != "dldoctor-system-profile/1" or raw.get("platform") != platform:
        raise DataError(f"{where}: unknown schema or platform")
    prov = raw.get("provenance")
    if not isinstance(prov, dict):
        raise DataError(f"{where}: no provenance")
    for key in ("system32", "windows10_additions", "driver_dlls", "api_set_prefixes"):
        if not isinstance(prov.get(key), str) or not prov[key]:
            raise DataError(f"{where}: {key} has no provenance")
    additions = raw.get("windows10_additions")
    drivers = raw.get("driver_dlls")
    if not isinstance(additions, dict) or not isinstance(drivers, dict):
        raise DataError(f"{where}: windows10_additions and driver_dlls must map names to sources")
    return SystemProfile(
        platform=platform,
        title=str(raw.get("title", platform)),
        system32=frozenset(_strings(raw, "system32", where)) | frozenset(k.lower() for k in additions),
        driver_dlls=frozenset(k.lower() for k in drivers),
        api_set_prefixes=_strings(raw, "api_set_prefixes", where),
    )


@lru_cache(maxsize=1)
def load_vc_runtime() -> VcRuntime:
    """vc_runtime.toml, validated: every minimum needs a specifier, a version and an https source."""
    raw = load_toml("profiles/vc_runtime.toml")
    where = "vc_runtime.toml"
    if raw.get("schema_version") != 1:
        raise DataError(f"{where}: schema_version must be 1")
    minimums = []
    for entry in raw.get("minimum", []):
        for key in ("dist", "specifier", "dll", "version", "why", "source"):
            if not isinstance(entry.get(key), str):
                raise DataError(f"{where}: a minimum lacks {key!r}")
        sources = tuple(s for s in (entry["source"], entry.get("source2", "")) if s)
        if not all(s.startswith("https://") for s in sources):
            raise DataError(f"{where}: sources must be https URLs")
        try:
            spec = SpecifierSet(entry["specifier"])
        except InvalidSpecifier as exc:
            raise DataError(f"{where}: {exc}") from None
        minimums.append(VcMinimum(entry["dist"], spec, entry["dll"].lower(), entry["version"], entry["why"], sources))
    return VcRuntime(
        dlls=_strings(raw, "dlls", where),
        python_app_dir=frozenset(_strings(raw, "python_app_dir", where)),
        redist_url=str(raw.get("redist_url", "")),
        minimums=tuple(minimums),
        interchangeable_from=_interchangeable(raw, where),
    )


def _interchangeable(raw: Mapping[str, Any], where: str) -> str:
    value = raw.get("interchangeable_from", "")
    if not isinstance(value, str) or (value and not str(raw.get("interchangeable_source", "")).startswith("https://")):
        raise DataError(f"{where}: interchangeable_from must be a version with an https interchangeable_source")
    return value


@lru_cache(maxsize=1)
def host_data() -> Dict[str, Any]:
    """windows_host.toml, validated: each table needs its https source."""
    data = load_toml("profiles/windows_host.toml")
    for table in ("gpu", "pagefile", "tdr"):
        if not str(data.get(table, {}).get("source", "")).startswith("https://"):
            raise DataError(f"windows_host.toml: [{table}] needs an https source")
    return data


@dataclass(frozen=True)
class WindowsDllData:
    """The system DLL lists the loader model needs (validated at load)."""

    known_dlls: FrozenSet[str]
    os_dlls: FrozenSet[str]
    api_set_prefixes: Tuple[str, ...]


DLL_DATA_FILE = PROFILE_DIR / "windows_dlls.json"


@lru_cache(maxsize=1)
def load_windows_dll_data(path: str = str(DLL_DATA_FILE)) -> WindowsDllData:
    """Read and validate ``windows_dlls.json``; a broken file is a loud error."""
    with open(path, encoding="utf-8") as fh:
        raw = json.load(fh)
    if raw.get("schema") != "dldoctor-windows-dlls/1" or not isinstance(raw.get("provenance"), dict):
        raise ValueError(f"{path}: unknown schema or no provenance")
    lists = {}
    for key in ("known_dlls", "os_dlls", "api_set_prefixes"):
        value = raw.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v == v.lower() for v in value):
            raise ValueError(f"{path}: {key} must be a list of lower-case strings")
        if key not in raw["provenance"]:
            raise ValueError(f"{path}: {key} has no provenance")
        lists[key] = value
    return WindowsDllData(
        frozenset(lists["known_dlls"]),
        frozenset(lists["os_dlls"]),
        tuple(lists["api_set_prefixes"]),
    )
