"""dldoctor: diagnose why a Python deep-learning stack fails to import or run.

The public surface is declared here; everything else is internal. Importing dldoctor is
cheap: the heavy parts load when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

from dldoctor.model import Diagnosis, Finding, Report, Severity

if TYPE_CHECKING:
    from dldoctor.snapshot.model import Snapshot

from dldoctor._version import __version__

__all__ = ["Diagnosis", "Finding", "Report", "Severity", "Snapshot", "__version__", "diagnose", "explain"]


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
    if name == "Snapshot":
        from dldoctor.snapshot.model import Snapshot

        return Snapshot
    raise AttributeError(name)
