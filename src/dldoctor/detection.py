"""Which commands can report each condition, and the rule that every condition is reported by
at least one of them.

A condition is data (conditions.toml); what detects it lives in five places: a registered
check (``check``; ``wheels`` runs them on its virtual install too), a probe rule
(``probe``, and ``check``'s observed findings), a signature (``explain``), a lint rule
(``lint``) and the wheel-set simulator (``wheels``). The generated docs page of each condition
names its commands, and a condition that nothing detects is a data error: ``dldoctor rules``,
``python -m dldoctor.docs`` and the test suite fail on it with the steps to take.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Set, Tuple

from dldoctor import conditions
from dldoctor.conditions import DataError

COMMANDS = ("check", "probe", "explain", "lint", "wheels")


@lru_cache(maxsize=1)
def detectors() -> Dict[str, Tuple[str, ...]]:
    """slug -> the commands that can report it, in COMMANDS order (empty: nothing does)."""
    from dldoctor.checks import registry
    from dldoctor.explainer.signatures import load_signatures
    from dldoctor.lint.runner import RULE_SLUGS
    from dldoctor.probe.findings import GPU_CHILD_SLUGS, SPAWN_SLUGS
    from dldoctor.probe.findings import SLUGS as PROBE_SLUGS
    from dldoctor.wheelset.findings import CHECKED_SLUGS
    from dldoctor.wheelset.findings import SLUGS as WHEELSET_SLUGS

    by: Dict[str, Set[str]] = {
        "check": set(registry()) | (set(PROBE_SLUGS) - set(SPAWN_SLUGS) - set(GPU_CHILD_SLUGS)),
        "probe": set(PROBE_SLUGS),
        "explain": {slug for sig in load_signatures().signatures for slug, _ in sig.causes},
        "lint": set(RULE_SLUGS),
        "wheels": set(WHEELSET_SLUGS) | set(CHECKED_SLUGS),
    }
    return {c.slug: tuple(cmd for cmd in COMMANDS if c.slug in by[cmd]) for c in conditions.all_conditions()}


def undetected() -> List[str]:
    return [slug for slug, cmds in detectors().items() if not cmds]


def require_detection() -> None:
    """DataError naming every condition that no command reports, and how to fix that."""
    missing = undetected()
    if missing:
        raise DataError(
            f"conditions that nothing detects: {', '.join(missing)}. Give each a check "
            "(@check(SLUG) in src/dldoctor/checks/<topic>.py), a signature (signatures.toml), a probe "
            "rule or a lint rule; CONTRIBUTING.md, 'Adding a condition'"
        )
