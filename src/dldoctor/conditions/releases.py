"""known_versions.toml: framework releases with a known loading regression (known-bad-release)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from dldoctor.conditions import DataError, load_toml


@lru_cache(maxsize=1)
def known_bad_releases() -> Tuple[Dict[str, Any], ...]:
    """known_versions.toml, validated: every entry needs a specifier, platforms and a source."""
    data = load_toml("known_versions.toml")
    out = []
    for raw in data.get("release", []):
        for key in ("dist", "specifier", "platforms", "symptom", "good", "source"):
            if key not in raw:
                raise DataError(f"known_versions.toml: entry {raw.get('dist')} lacks {key!r}")
        try:
            SpecifierSet(raw["specifier"])
        except InvalidSpecifier as exc:
            raise DataError(f"known_versions.toml: {exc}") from None
        if not str(raw["source"]).startswith("https://"):
            raise DataError("known_versions.toml: source must be an https URL")
        out.append(dict(raw))
    return tuple(out)
