"""How one library name was found (or not): the loader models' result type.

A module of its own, below :mod:`dldoctor.model` (which re-exports it), so that
``dldoctor deps`` loads this one small type and not every core type: its start-up is
measured against ``ldd`` (bench/bench_startup.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Resolution:
    """How one library name was found (or not) by a loader model."""

    name: str
    path: Optional[str]
    rule: str
    tried: Tuple[str, ...] = ()
    shadowed: Tuple[str, ...] = ()
