"""Static checks of user code (stdlib ``ast``) for the pitfalls of seeds 000, 003 and 004.

``lint_paths(paths)`` returns a :class:`LintResult`; the rules are conditions of the shared
knowledge base (``dldoctor rules SLUG`` prints their pages).
"""

from dldoctor.lint.model import LintFinding, LintResult
from dldoctor.lint.runner import RULE_SLUGS, lint_paths, lint_source

__all__ = ["RULE_SLUGS", "LintFinding", "LintResult", "lint_paths", "lint_source"]
