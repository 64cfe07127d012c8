"""dldoctor: diagnose why a Python deep-learning stack fails to import or run.

The public surface is declared here; everything else is internal. Importing dldoctor is
cheap (nothing but the version): the types and the engines load when first used, so the
command line starts fast and ``python -m dldoctor --version`` imports no model or data.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

from dldoctor._version import __version__

if TYPE_CHECKING:
    from dldoctor.model import Diagnosis, Finding, Report, Severity
    from dldoctor.snapshot.model import Snapshot

__all__ = ["Diagnosis", "Finding", "Report", "Severity", "Snapshot", "__version__", "diagnose", "explain"]

# Public names loaded on first access (PEP 562), from the module that defines them.
_LAZY = {
    "Diagnosis": "dldoctor.model",
    "Finding": "dldoctor.model",
    "Report": "dldoctor.model",
    "Severity": "dldoctor.model",
    "Snapshot": "dldoctor.snapshot.model",
}


def diagnose(
    python: Optional[str] = None,
    snapshot: Optional[Snapshot] = None,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
) -> Report:
    """Static checks of an environment (``python``, default this one) or a loaded snapshot."""
    from dldoctor.report import diagnose as _diagnose

    return _diagnose(python, snapshot, select, ignore)


def explain(text: str, snapshot: Optional[Snapshot] = None) -> Tuple[Diagnosis, ...]:
    """Likely causes of a pasted error ``text``, best first (weighed with ``snapshot``'s facts)."""
    from dldoctor.checks import run_checks
    from dldoctor.explainer import explain as _explain

    return _explain(text, snapshot, run_checks(snapshot) if snapshot is not None else ())


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dldoctor' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> Sequence[str]:
    return sorted(set(globals()) | set(__all__))
