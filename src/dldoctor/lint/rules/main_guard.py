"""multiprocessing-main-guard: worker processes started by code that runs at import time.

With the spawn start method (Windows; macOS since Python 3.8; Linux when chosen) each child
re-imports the main script as ``__mp_main__``, so a process start that the script reaches on
import runs again in every child, and Python stops with "An attempt has been made to start a
new process before the current process has finished its bootstrapping phase".

:mod:`dldoctor.lint.interp` runs the import-time code abstractly and records each start: a
Pool or ``mp.spawn`` when called, a Process on ``start()``, a ProcessPoolExecutor on
``submit()``/``map()``, a DataLoader with workers when iterated (not when built), a trainer's
``fit()`` over such loaders. A finding points at the module-level statement where workers
start or at the module-level call that leads there, with the call path as evidence; a worker
count the file does not determine is reported as unresolved, not guessed.
"""

from __future__ import annotations

import re
from typing import Iterator, Set, Tuple

from dldoctor.lint.analysis import location
from dldoctor.lint.frames import Start
from dldoctor.lint.interp import walk_starts
from dldoctor.lint.model import Context, Hit
from dldoctor.lint.source import parse_noqa
from dldoctor.model import Evidence

SLUG = "multiprocessing-main-guard"
CODE = "DLD026"


def _hit(start: Start, ctx: Context) -> Hit:
    line, col = location(start.trigger)
    site_line = location(start.site)[0]
    what = "workers" if start.unresolved.startswith(("num_workers", "**")) else "count"
    if start.path:
        callee = start.path[0][0]
        suffix = f"no guard, {what} unresolved" if start.unresolved else "no __main__ guard"
        message = f"{callee}() starts workers on import ({ctx.where(site_line)}); {suffix}"
    else:
        label = start.label
        if start.unresolved:  # the full expression is in the evidence
            label = re.sub(r"\(num_workers=.*\)", "(...)", label)
        suffix = f"a guard; {what} unresolved" if start.unresolved else "a __main__ guard"
        message = f"{label} runs on import without {suffix}"
    evidence = [Evidence("starts workers", f"{ctx.where(site_line)}: {start.label}")]
    if start.path:
        chain = " > ".join(f"{name}() {ctx.where(at)}" for name, at in start.path)
        evidence.append(Evidence("call path", chain))
    if start.unresolved:
        evidence.append(
            Evidence("unresolved", f"{start.unresolved}: not determined by this file, taken as > 0")
        )
    return Hit(SLUG, line, col, message, "", tuple(evidence))


def check(ctx: Context) -> Iterator[Hit]:
    """Every module-level statement that starts workers, once, in execution order.

    A start on a line silenced for this rule (``# noqa: DLD026``) is skipped here, so the next
    one is still reported by ``dldoctor lint`` and flake8 alike.
    """
    if not ctx.script:
        return
    noqa = parse_noqa(ctx.source.text)
    seen: Set[Tuple[int, int]] = set()
    for start in walk_starts(ctx.tree, ctx.source.text):
        hit = _hit(start, ctx)
        codes = noqa.get(hit.line, frozenset())
        if hit.line in noqa and (codes is None or CODE in codes):
            continue
        if (hit.line, hit.col) not in seen:
            seen.add((hit.line, hit.col))
            yield hit
