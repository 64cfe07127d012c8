"""cuda-ipc-unsupported: CUDA tensors that would cross a process boundary (no CUDA IPC on Windows).

Three shapes, each seen in public code: a CUDA tensor put on a multiprocessing queue, a CUDA
tensor in the ``args`` of a Process / ``mp.spawn``, and a Dataset whose ``__getitem__`` (or
``__iter__``) moves data to CUDA while a DataLoader with workers in the same module uses it
(workers send their samples to the parent through shared memory). What counts as CUDA is
literal: ``.cuda()``, ``.to("cuda")``, ``device="cuda..."`` and names bound to those (a
``torch.device("cuda" if ... else "cpu")`` counts: on the machines that matter it is CUDA).
"""

from __future__ import annotations

import ast
import re
from typing import Dict, Iterator, List, Sequence, Set

from dldoctor.lint.analysis import location
from dldoctor.lint.model import Context, Hit
from dldoctor.lint.workers import dataloader_dataset, num_workers, spawn_site
from dldoctor.model import Evidence

SLUG = "cuda-ipc-unsupported"
_QUEUE_NAME = re.compile(r"(^|_)q$|queue", re.IGNORECASE)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def scope_nodes(body: Sequence[ast.stmt]) -> Iterator[ast.AST]:
    """Nodes of a block, not entering nested functions, lambdas or classes."""
    todo: List[ast.AST] = list(reversed(body))
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


class _Cuda:
    """Which expressions of one scope are CUDA devices or CUDA tensors."""

    def __init__(self, body: Sequence[ast.stmt], devices: Set[str]) -> None:
        self.devices = set(devices)
        self.tensors: Set[str] = set()
        assigns = [n for n in scope_nodes(body) if isinstance(n, ast.Assign)]
        for _ in range(2):  # let names bound from names settle
            for node in assigns:
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                if self.is_device(node.value):
                    self.devices |= names
                elif self.is_tensor(node.value):
                    self.tensors |= names

    def is_device(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value.startswith("cuda")
        if isinstance(node, ast.JoinedStr):
            return bool(node.values) and self.is_device(node.values[0])
        if isinstance(node, ast.IfExp):
            return self.is_device(node.body) or self.is_device(node.orelse)
        if isinstance(node, ast.Name):
            return node.id in self.devices
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            return node.func.attr == "device" and self.is_device(node.args[0])
        return False

    def is_tensor(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.tensors
        if isinstance(node, (ast.Tuple, ast.List)):
            return any(self.is_tensor(e) for e in node.elts)
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "cuda":
            return True
        if isinstance(func, ast.Attribute) and func.attr == "to" and node.args:
            return self.is_device(node.args[0]) or any(
                kw.arg == "device" and self.is_device(kw.value) for kw in node.keywords
            )
        return any(kw.arg == "device" and self.is_device(kw.value) for kw in node.keywords)

    def first_tensor_call(self, body: Sequence[ast.stmt]) -> ast.Call | None:
        for node in scope_nodes(body):
            if isinstance(node, ast.Call) and self.is_tensor(node):
                return node
        return None


def _scopes(tree: ast.Module) -> Iterator[Sequence[ast.stmt]]:
    yield tree.body
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.body


def _uses_multiprocessing(ctx: Context) -> bool:
    return any(
        q.split(".")[0] == "multiprocessing" or q.startswith("torch.multiprocessing")
        for q in ctx.info.aliases.values()
    )


def _queue_names(ctx: Context) -> Set[str]:
    names: Set[str] = set()
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            q = ctx.info.qualname(func) or ""
            if q in ctx.apis.queues or (
                isinstance(func, ast.Attribute)
                and func.attr == "Queue"
                and not q.startswith("queue.")
            ):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _receiver(func: ast.Attribute) -> str:
    value = func.value
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Attribute):
        return value.attr
    return ""


def _cross_process(ctx: Context, module_devices: Set[str]) -> Iterator[Hit]:
    queues = _queue_names(ctx)
    mp = _uses_multiprocessing(ctx)
    for body in _scopes(ctx.tree):
        cuda = _Cuda(body, module_devices)
        for node in scope_nodes(body):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("put", "put_nowait") and node.args:
                name = _receiver(func)
                queue = name in queues or (mp and _QUEUE_NAME.search(name) is not None)
                if queue and cuda.is_tensor(node.args[0]):
                    line, col = location(node)
                    yield Hit(
                        SLUG,
                        line,
                        col,
                        "CUDA tensor put on a multiprocessing queue",
                        evidence=(Evidence("queue", name),),
                    )
                continue
            site = spawn_site(node, ctx)
            if site is None or ctx.info.qualname(node.func) in ctx.apis.dataloaders:
                continue  # DataLoaders are handled through their Dataset
            args = [kw.value for kw in node.keywords if kw.arg == "args"]
            if any(cuda.is_tensor(a) for a in args):
                line, col = location(node)
                yield Hit(
                    SLUG,
                    line,
                    col,
                    f"CUDA tensor passed to a worker process ({site.label})",
                    evidence=(Evidence("starts workers", site.label),),
                )


def _dataset_classes(ctx: Context) -> Dict[str, ast.ClassDef]:
    out: Dict[str, ast.ClassDef] = {}
    for name, cls in ctx.info.classes.items():
        bases = [
            b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in cls.bases
        ]
        if any(b.endswith("Dataset") for b in bases):
            out[name] = cls
    return out


def _loaders_by_class(ctx: Context, classes: Dict[str, ast.ClassDef]) -> Dict[str, int]:
    """Dataset class -> line of a DataLoader with workers that loads it."""
    made: Dict[str, str] = {}  # variable -> class, flow-insensitive over the module
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Name) and func.id in classes:
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        made[t.id] = func.id
    out: Dict[str, int] = {}
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Call):
            continue
        if ctx.info.qualname(node.func) not in ctx.apis.dataloaders:
            continue
        dataset = dataloader_dataset(node, ctx)
        if dataset is None or num_workers(node, ctx) is None:
            continue
        cls = None
        if isinstance(dataset, ast.Call) and isinstance(dataset.func, ast.Name):
            cls = dataset.func.id
        elif isinstance(dataset, ast.Name):
            cls = made.get(dataset.id)
        if cls in classes:
            out.setdefault(cls, node.lineno)
    return out


def _datasets(ctx: Context, module_devices: Set[str]) -> Iterator[Hit]:
    classes = _dataset_classes(ctx)
    used = _loaders_by_class(ctx, classes)
    for name, line in sorted(used.items()):
        for item in classes[name].body:
            if isinstance(item, ast.FunctionDef) and item.name in ("__getitem__", "__iter__"):
                call = _Cuda(item.body, module_devices).first_tensor_call(item.body)
                if call is not None:
                    at, col = location(call)
                    message = (
                        f"CUDA tensor in {name}.{item.name} with DataLoader workers"
                        f" ({ctx.where(line)})"
                    )
                    yield Hit(
                        SLUG, at, col, message, evidence=(Evidence("DataLoader", ctx.where(line)),)
                    )


def check(ctx: Context) -> Iterator[Hit]:
    module_devices = _Cuda(ctx.tree.body, set()).devices
    yield from _cross_process(ctx, module_devices)
    yield from _datasets(ctx, module_devices)
