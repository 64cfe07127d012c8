"""dldoctor: diagnose why a Python deep-learning stack fails to import or run.

The public surface is declared here; everything else is internal.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
