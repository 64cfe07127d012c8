"""import-order-conflict: imports in an order that public reports say fails.

The orders come from ``import_orders.toml`` (each with its public source). Only imports that
run when the file runs count (module level, guarded blocks included; not function bodies),
in source order; for notebooks the code cells in order. A file that imports the second
module before the first one anywhere is fine: the first import decides which native copy
wins.
"""

from __future__ import annotations

from typing import Iterator, List, Tuple

from dldoctor.lint.analysis import location
from dldoctor.lint.data import import_orders
from dldoctor.lint.model import Context, Hit
from dldoctor.lint.rules.framework_import import bindings, module_imports
from dldoctor.model import Evidence

SLUG = "import-order-conflict"


def check(ctx: Context) -> Iterator[Hit]:
    seen: List[Tuple[int, int, str]] = []  # (line, col, root module) in source order
    for stmt, _ in module_imports(ctx.tree.body):
        line, col = location(stmt)
        for _, root in bindings(stmt):
            seen.append((line, col, root))
    seen.sort()
    for order in import_orders():
        then = next((s for s in seen if s[2] in order.then), None)
        if then is None:
            continue
        first = next((s for s in seen if s[2] in order.first and s[0] < then[0]), None)
        if first is None:
            continue
        line, col, module = then
        yield Hit(
            SLUG,
            line,
            col,
            f"{module} imported after {first[2]} ({ctx.where(first[0])}): {order.effect}",
            f"Import {module} before {first[2]}.",
            (Evidence("reported", order.source), Evidence("platforms", ", ".join(order.platforms))),
        )
