"""The layers of dldoctor, bottom to top, and the check that every import points downwards.

This table is the one place the layers are written down (DESIGN §3 and CONTRIBUTING.md
refer to it). A module may import from its own layer and the layers below; importing from a
layer above couples a fact-gatherer to a judge, or a judge to a printer, and fails the test
suite (``tests/test_layers.py``) and ``python -m dldoctor.dev layers``.

Every import counts: module level, inside functions (lazy imports are still dependencies),
and under ``if TYPE_CHECKING:`` (a type-only import still makes the lower module's API speak
of the higher layer's types; if one is ever needed, the type belongs lower). ``from dldoctor
import conditions`` is an import of ``dldoctor.conditions``; ``from dldoctor import X`` of
anything else is an import of the package face. Literal ``importlib.import_module("...")``
calls count too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

PACKAGE = "dldoctor"
SRC = Path(__file__).resolve().parents[1]

# (layer, module prefixes), bottom first. A prefix names a module and everything below it.
LAYERS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("core", ("dldoctor._version", "dldoctor.errors", "dldoctor.model", "dldoctor.redact", "dldoctor.resolution",
              "dldoctor.inputs")),
    ("data", ("dldoctor.conditions",)),  # every data table, with its loader and schema
    ("binary", ("dldoctor.binary",)),  # ELF / PE / Mach-O header readers
    ("loader", ("dldoctor.loader",)),  # search-order models; loader.frameworks: import-time steps
    # everything that reads the machine, and the supervisor every process in a patient runs under
    ("snapshot", ("dldoctor.snapshot", "dldoctor.interpreter", "dldoctor.supervise")),
    ("analysis", ("dldoctor.checks", "dldoctor.explainer", "dldoctor.lint")),  # judge values
    ("orchestration", ("dldoctor.wheelset", "dldoctor.probe", "dldoctor.report", "dldoctor.detection",
                       "dldoctor.fleet")),
    ("render", ("dldoctor.render",)),  # values -> text; nothing else formats output
    ("face", ("dldoctor.cli", "dldoctor.docs", "dldoctor.dev", "dldoctor.__main__", "dldoctor")),
)

# Run inside the target interpreter (any Python 3.8+, stdlib only): they import nothing of ours.
STANDALONE = ("dldoctor.snapshot.collector", "dldoctor.probe.child", "dldoctor.supervise.supervisor")


@dataclass(frozen=True)
class Violation:
    module: str
    line: int
    imported: str
    why: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: imports {self.imported}: {self.why}"


def layer_of(module: str) -> Optional[Tuple[int, str]]:
    """(rank, layer name) by the longest matching prefix; the bare package is only itself."""
    best: Optional[Tuple[int, int, str]] = None
    for rank, (name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            hit = module == prefix or (prefix != PACKAGE and module.startswith(prefix + "."))
            if hit and (best is None or len(prefix) > best[0]):
                best = (len(prefix), rank, name)
    return (best[1], best[2]) if best else None


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str, src: Path) -> bool:
    rel = Path(*name.split(".")[1:]) if "." in name else Path()
    return (src / rel).with_suffix(".py").is_file() or (src / rel / "__init__.py").is_file()


def imports_of(path: Path, src: Path = SRC) -> Iterator[Tuple[int, str]]:
    """(line, dldoctor module) for every import in the file, wherever it is written."""
    module = module_name(path, src)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if _is_module(sub, src) else target
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def violations(src: Path = SRC) -> List[Violation]:
    """Every import from a higher layer, every module the table does not place, and every
    import of ours in a module that runs inside the target interpreter."""
    out: List[Violation] = []
    for path in sorted(src.rglob("*.py")):
        module = module_name(path, src)
        mine = layer_of(module)
        if mine is None:
            out.append(Violation(module, 1, "-", "no layer: add its prefix to LAYERS in dldoctor/dev/layers.py"))
            continue
        for line, target in imports_of(path, src):
            if target != PACKAGE and not target.startswith(PACKAGE + "."):
                continue
            if module in STANDALONE:
                out.append(Violation(module, line, target, "runs inside the target interpreter: stdlib only"))
                continue
            theirs = layer_of(target)
            if theirs is not None and theirs[0] > mine[0]:
                out.append(Violation(module, line, target, f"layer {mine[1]} imports from {theirs[1]}, above it"))
    return out


def table() -> Dict[str, Sequence[str]]:
    return {name: prefixes for name, prefixes in LAYERS}
