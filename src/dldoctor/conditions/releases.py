"""known_versions.toml: framework (and dependency) releases with a known loading regression
(known-bad-release)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Mapping, Optional, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from dldoctor.conditions import PLATFORMS, DataError, load_toml

_REQUIRED = ("dist", "specifier", "platforms", "symptom", "good", "source")
_KEYS = {*_REQUIRED, "source2", "marks", "alone", "with", "variants", "load", "machines"}
#: CPU architectures an entry may be limited to, as ``machine_of`` names them
MACHINES = ("x86_64", "aarch64")
_MACHINE_NAMES = {"x86_64": "x86_64", "amd64": "x86_64", "x64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


def machine_of(raw: Optional[str]) -> Optional[str]:
    """The architecture a machine name means ("AMD64" and "x86_64" are one, so are "arm64" and
    "aarch64"); None for an unknown or unlisted one."""
    return _MACHINE_NAMES.get((raw or "").lower())


def on_machine(entry: Mapping[str, Any], machine: Optional[str]) -> bool:
    """Whether an entry applies on ``machine``: any, when the entry lists no ``machines``; else
    only a machine it lists (an unknown machine is none: such an entry's symptom, an illegal
    instruction, is what every CPU lacking an instruction shows, so it is claimed only where the
    architecture is known)."""
    return "machines" not in entry or machine_of(machine) in entry["machines"]


def _validate(raw: Dict[str, Any]) -> Dict[str, Any]:
    where = f"known_versions.toml: entry {raw.get('dist')} {raw.get('specifier')}"
    for key in _REQUIRED:
        if key not in raw:
            raise DataError(f"{where} lacks {key!r}")
    unknown = set(raw) - _KEYS
    if unknown:
        raise DataError(f"{where}: unknown keys {sorted(unknown)}")
    try:
        SpecifierSet(raw["specifier"])
    except InvalidSpecifier as exc:
        raise DataError(f"known_versions.toml: {exc}") from None
    for key in ("source", "source2"):
        if key in raw and not str(raw[key]).startswith("https://"):
            raise DataError(f"{where}: {key} must be an https URL")
    if not isinstance(raw["platforms"], list) or not set(raw["platforms"]) <= set(PLATFORMS):
        raise DataError(f"{where}: platforms must be a list of {PLATFORMS}")
    marks = raw.get("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, str) and m and m == m.lower() for m in marks):
        raise DataError(f"{where}: marks must be a list of non-empty lower-case strings")
    for key in ("with", "variants"):
        names = raw.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise DataError(f"{where}: {key} must be a list of distribution names")
    alone = raw.get("alone", 0.3)
    if not isinstance(alone, (int, float)) or isinstance(alone, bool) or not 0 < alone <= 1:
        raise DataError(f"{where}: alone must be a number in (0, 1]")
    machines = raw.get("machines")
    if "machines" in raw and (not isinstance(machines, list) or not machines or not set(machines) <= set(MACHINES)):
        raise DataError(f"{where}: machines must be a non-empty list of {MACHINES}")
    if not isinstance(raw.get("load", True), bool):
        raise DataError(f"{where}: load must be true or false")
    return dict(raw, marks=list(marks), alone=float(alone), load=raw.get("load", True))


def dists_of(entry: Mapping[str, Any]) -> Tuple[str, ...]:
    """Every distribution name an entry covers: its ``dist``, then its ``variants``."""
    return (entry["dist"], *entry.get("variants", ()))


@lru_cache(maxsize=1)
def known_bad_releases() -> Tuple[Dict[str, Any], ...]:
    """known_versions.toml, validated: every entry needs a specifier, platforms and a source."""
    data = load_toml("known_versions.toml")
    return tuple(_validate(raw) for raw in data.get("release", []))
