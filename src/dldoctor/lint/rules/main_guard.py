"""multiprocessing-main-guard: worker processes started by code that runs at import time.

With the spawn start method (Windows; macOS since Python 3.8) each child re-imports the main
script, so a Pool, ``mp.spawn`` or a DataLoader with workers that is reached from module
level (directly, or through same-module functions it calls) starts children again in every
child and Python stops with "An attempt has been made to start a new process before the
current process has finished its bootstrapping phase". Code under ``if __name__ ==
"__main__":`` and functions called only from there do not run in the children.

Lazy objects (a DataLoader, Process, ProcessPoolExecutor) start workers only when used, so
one bound to a module-level name is reported only when that name is used by code that runs at
import time; anything else reached at import time is reported where the reaching call is.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Set

from dldoctor.lint.analysis import FunctionNode, Reach, display_name, location
from dldoctor.lint.model import Context, Hit
from dldoctor.lint.workers import SpawnSite, spawn_site
from dldoctor.model import Evidence

SLUG = "multiprocessing-main-guard"


class _Graph:
    """Same-module call graph from module level, with the first spawn each function reaches."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._reach: Dict[int, Reach] = {}
        self._spawn: Dict[int, SpawnSite | None] = {}

    def reach(self, fn: FunctionNode) -> Reach:
        if id(fn) not in self._reach:
            self._reach[id(fn)] = self.ctx.info.reach(fn.body)
        return self._reach[id(fn)]

    def callees(
        self, calls: List[ast.Call], reach: Reach, fn: FunctionNode | None
    ) -> List[FunctionNode]:
        return [t for call in calls for t in self.ctx.info.targets(call, reach, fn)]

    def reachable(self, top: Reach) -> List[FunctionNode]:
        seen: Set[int] = set()
        todo = self.callees(top.calls, top, None)
        out: List[FunctionNode] = []
        while todo:
            fn = todo.pop()
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            out.append(fn)
            r = self.reach(fn)
            todo.extend(self.callees(r.calls, r, fn))
        return out

    def first_spawn(self, fn: FunctionNode, stack: Set[int] | None = None) -> SpawnSite | None:
        if id(fn) in self._spawn:
            return self._spawn[id(fn)]
        stack = set() if stack is None else stack
        if id(fn) in stack:
            return None
        stack.add(id(fn))
        r = self.reach(fn)
        found: SpawnSite | None = None
        for call in r.calls:
            found = spawn_site(call, self.ctx)
            if found is None:
                for target in self.ctx.info.targets(call, r, fn):
                    found = self.first_spawn(target, stack)
                    if found is not None:
                        break
            if found is not None:
                break
        stack.discard(id(fn))
        self._spawn[id(fn)] = found
        return found


def _bound_names(tree: ast.Module) -> Dict[int, str]:
    """id(call) -> name, for ``name = Call(...)`` assignments."""
    out: Dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                out[id(node.value)] = target.id
    return out


def check(ctx: Context) -> Iterator[Hit]:
    if not ctx.script:
        return
    fix = ""  # the condition's own fix says it
    graph = _Graph(ctx)
    top = ctx.info.reach(ctx.tree.body)
    loads = set(top.loads)
    for fn in graph.reachable(top):
        loads |= graph.reach(fn).loads
    bound = _bound_names(ctx.tree)
    for call in top.calls:
        site = spawn_site(call, ctx)
        line, col = location(call)
        if site is not None:
            name = bound.get(id(call))
            if site.lazy and name is not None and name not in loads:
                continue  # bound at module level but only used under the guard
            yield Hit(
                SLUG,
                line,
                col,
                f"{site.label} runs on import without a __main__ guard",
                fix,
                (Evidence("starts workers", f"line {line}: {site.label}"),),
            )
            continue
        for target in ctx.info.targets(call, top, None):
            site = graph.first_spawn(target)
            if site is None:
                continue
            where = location(site.call)[0]
            kind = site.label.split("(")[0]
            yield Hit(
                SLUG,
                line,
                col,
                f"{display_name(target, ctx.info)}() starts {kind} ({ctx.where(where)}) on import;"
                " no __main__ guard",
                fix,
                (Evidence("starts workers", f"line {where}: {site.label}"),),
            )
            break
