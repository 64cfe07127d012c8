"""Recognise calls that start worker processes (shared by the main-guard and CUDA IPC rules)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from dldoctor.lint.model import Context


@dataclass(frozen=True)
class SpawnSite:
    call: ast.Call
    label: str  # "Pool", "DataLoader(num_workers=4)"
    lazy: bool


def _arg(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > position and not any(isinstance(a, ast.Starred) for a in call.args):
        return call.args[position]
    return None


def dataloader_dataset(call: ast.Call, ctx: Context) -> ast.expr | None:
    return _arg(call, "dataset", ctx.apis.dataset_position)


def num_workers(call: ast.Call, ctx: Context) -> str | None:
    """How a DataLoader call sets num_workers, or None when it starts no workers.

    A literal 0 (or a module constant bound to 0), or no argument at all, means no workers;
    anything else (a positive literal, ``args.workers``, ``**kwargs``) may start them.
    """
    value = _arg(call, "num_workers", ctx.apis.num_workers_position)
    if value is None:
        if any(kw.arg is None for kw in call.keywords):
            return "**" + ctx.segment(next(kw.value for kw in call.keywords if kw.arg is None), 12)
        if any(isinstance(a, ast.Starred) for a in call.args):
            return "*args"
        return None
    literal: object = None
    if isinstance(value, ast.Constant):
        literal = value.value
    elif isinstance(value, ast.Name) and value.id in ctx.info.ints:
        literal = ctx.info.ints[value.id]
    if literal == 0 or (literal is None and isinstance(value, ast.Constant)):
        return None
    return f"num_workers={ctx.segment(value, 16)}"


def spawn_site(call: ast.Call, ctx: Context) -> SpawnSite | None:
    """The call starts (or will start) worker processes."""
    q = ctx.info.qualname(call.func)
    if q is None:
        return None
    if q in ctx.apis.dataloaders:
        workers = num_workers(call, ctx)
        if workers is None:
            return None
        name = call.func.attr if isinstance(call.func, ast.Attribute) else ctx.segment(call.func)
        return SpawnSite(call, f"{name}({workers})", lazy=True)
    sp = ctx.apis.spawner(q)
    if sp is None:
        return None
    return SpawnSite(call, f"{ctx.segment(call.func, 28)}()", sp.lazy)
