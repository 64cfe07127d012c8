"""instruction_sets.toml: the x86-64 instruction-set extensions a distribution's wheels need
(cpu-instructions-unsupported).

A wheel built for AVX dies on a CPU without it with SIGILL ("Illegal instruction") before
Python can say anything, so the requirement is data with its source and the execution that
confirmed it, read by the check; the CPU's flags come from the snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Tuple

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.conditions import DataError, load_toml

# The flags the snapshot records (Linux's /proc/cpuinfo names; the collector is given this list);
# a row may need only these.
KNOWN_FLAGS = ("sse4_1", "sse4_2", "popcnt", "avx", "avx2", "fma", "avx512f")
_KEYS = {"dists", "since", "needs", "symptom", "fix", "source", "verified"}


@dataclass(frozen=True)
class Requirement:
    """One build family's need: its wheels from ``since`` on need every flag of ``needs``."""

    dists: Tuple[str, ...]
    since: Version
    needs: Tuple[str, ...]
    symptom: str
    fix: str  # "{pip}" stands for the environment's pip command
    source: str
    verified: str


def _parse(raw: Dict[str, Any]) -> Requirement:
    where = f"instruction_sets.toml: requirement {raw.get('dists')}"
    if set(raw) != _KEYS:
        raise DataError(f"{where}: keys must be {sorted(_KEYS)}, not {sorted(raw)}")
    dists, needs = raw["dists"], raw["needs"]
    if not isinstance(dists, list) or not dists or not all(isinstance(d, str) and d for d in dists):
        raise DataError(f"{where}: dists must be a non-empty list of names")
    if not isinstance(needs, list) or not needs or not set(needs) <= set(KNOWN_FLAGS):
        raise DataError(f"{where}: needs must be a non-empty list of {KNOWN_FLAGS}")
    if not str(raw["source"]).startswith("https://"):
        raise DataError(f"{where}: source must be an https URL")
    try:
        since = Version(str(raw["since"]))
    except InvalidVersion:
        raise DataError(f"{where}: since {raw['since']!r} is not a version") from None
    return Requirement(tuple(canonicalize_name(d) for d in dists), since, tuple(needs),
                       str(raw["symptom"]), str(raw["fix"]), str(raw["source"]), str(raw["verified"]))


@lru_cache(maxsize=1)
def instruction_requirements() -> Tuple[Requirement, ...]:
    """Every row of instruction_sets.toml, validated."""
    return tuple(_parse(raw) for raw in load_toml("instruction_sets.toml").get("requirement", []))
