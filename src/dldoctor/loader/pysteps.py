"""What a package's own Python code does to the native loader, read statically with ``ast``.

Packages make their native libraries findable before their extension modules load:
``os.add_dll_directory`` on a folder they ship (PyQt5's ``Qt5\\bin``, delvewheel's
``<pkg>.libs``), or a preload by full path with ctypes (scikit-learn's
``_distributor_init.py``: ``WinDLL(.libs\\vcomp140.dll)``; torch's loop over
``glob(torch\\lib\\*.dll)`` with ``LoadLibraryExW``). Importing the package to see it would
run its code (DESIGN: the doctor never imports a framework), so the source is parsed and
the path expressions evaluated symbolically: ``__file__``, ``os.path.dirname/join/abspath``,
``os.pardir``, string ``+`` and f-strings, ``pathlib`` ``/`` and ``.parent``, names bound by
assignment, walrus or ``for`` over ``glob.glob``. Every value a name may hold is kept (PyQt5
tries ``sys.executable``'s folder, then its own ``Qt5\\bin``): the model keeps the folders
that exist, as the package's own ``isfile`` tests do. Anything else is unknown and ignored.

Results are paths relative to site-packages with "/" (a ``*`` is a glob within one folder).
Pure: the caller hands in the sources (from a wheel's members or an installed package).
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Set, Tuple

MAX_SOURCE = 1 << 20  # an __init__.py is kilobytes; never parse a huge one
_DIR_CALLS = {"add_dll_directory"}
_LOAD_CALLS = {"WinDLL", "CDLL", "PyDLL", "OleDLL", "LoadLibrary", "LoadLibraryW", "LoadLibraryA",
               "LoadLibraryExW", "LoadLibraryExA"}
_SAME = {"abspath", "realpath", "normpath", "fspath", "str", "Path", "PurePath", "resolve", "expanduser"}


@dataclass(frozen=True)
class SourceSteps:
    """Folders added with add_dll_directory, files (or globs) loaded by full path, and the
    top-level modules imported at module level (``import torch`` in torchaudio/__init__.py:
    torch's DLLs are loaded before torchaudio's extension modules)."""

    dll_directories: Tuple[str, ...] = ()
    preloads: Tuple[str, ...] = ()
    imports: Tuple[str, ...] = ()


NO_STEPS = SourceSteps()


_HERE = "\x00"  # marks values derived from __file__: only those are the package's own paths


def _dirname(path: str) -> str:
    """posixpath.dirname that keeps the __file__ anchor (site-packages itself is ".")."""
    if path.startswith(_HERE):
        return _HERE + (posixpath.dirname(path[len(_HERE):].replace("\\", "/")) or ".")
    return posixpath.dirname(path.replace("\\", "/"))


def _norm(path: str) -> Optional[str]:
    """A value anchored at ``__file__`` as a site-packages-relative path; None for anything
    else (a bare "vcruntime140.dll" is a load by name, not a file the package ships)."""
    if not path.startswith(_HERE):
        return None
    p = posixpath.normpath(path[len(_HERE):].replace("\\", "/"))
    return None if p.startswith("..") or p.startswith("/") or p == "." or _HERE in p else p


class _Reader(ast.NodeVisitor):
    def __init__(self, module_rel: str) -> None:
        self.file = module_rel
        self.names: Dict[str, Set[str]] = {}
        self.dirs: List[str] = []
        self.loads: List[str] = []

    # -- symbolic values: sets of strings (paths relative to site-packages, or plain text)
    def value(self, node: ast.AST, depth: int = 0) -> Set[str]:
        if depth > 20:
            return set()

        def v(n: ast.AST) -> Set[str]:
            return self.value(n, depth + 1)

        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Name):
            return {_HERE + self.file} if node.id == "__file__" else set(self.names.get(node.id, ()))
        if isinstance(node, ast.Attribute):
            if node.attr == "pardir":
                return {".."}
            if node.attr == "parent":
                return {_dirname(x) for x in v(node.value)}
            return set()
        if isinstance(node, ast.NamedExpr):
            return v(node.value)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return {x for e in node.elts for x in v(e)}
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            for gen in node.generators:  # [p for p in (a, b) if exists(p)]: p may be a or b
                self._bind(gen.target, v(gen.iter))
            return v(node.elt)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return {a + b for a in v(node.left) for b in v(node.right)}
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return {posixpath.join(a, b) for a in v(node.left) for b in v(node.right)}
        if isinstance(node, ast.JoinedStr):
            out = {""}
            for part in node.values:
                inner = v(part.value) if isinstance(part, ast.FormattedValue) else v(part)
                out = {a + b for a in out for b in inner}
            return out
        if isinstance(node, ast.Call):
            return self._call_value(node, depth)
        return set()

    def _call_value(self, node: ast.Call, depth: int) -> Set[str]:
        name = _func_name(node.func)
        args = [self.value(a, depth + 1) for a in node.args]
        if name == "dirname" and len(args) == 1:
            return {_dirname(x) for x in args[0]}
        if name == "join" and args and not (isinstance(node.func, ast.Attribute)
                                            and isinstance(node.func.value, ast.Constant)):
            out = {""}
            for a in args:
                out = {posixpath.join(o, x.replace("\\", "/")) if o else x for o in out for x in a}
            return out
        if name in _SAME and len(args) == 1:
            return args[0]
        if name in ("glob", "iglob", "list", "tuple", "sorted", "reversed", "set") and args:
            return args[0]
        if name == "filter" and len(args) == 2:
            return args[1]
        if name == "joinpath" and isinstance(node.func, ast.Attribute):
            out = self.value(node.func.value, depth + 1)
            for a in args:
                out = {posixpath.join(o, x) for o in out for x in a}
            return out
        return set()

    # -- bindings and effects
    def _bind(self, target: ast.AST, values: Set[str]) -> None:
        if isinstance(target, ast.Name) and values:
            self.names.setdefault(target.id, set()).update(values)

    def visit_Assign(self, node: ast.Assign) -> None:
        values = self.value(node.value)
        for t in node.targets:
            self._bind(t, values)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, self.value(node.value))
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self._bind(node.target, self.value(node.value))
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        self._bind(node.target, self.value(node.iter))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)  # walrus inside the arguments binds first
        name = _func_name(node.func)
        if not node.args or name not in _DIR_CALLS | _LOAD_CALLS:
            return
        for raw in self.value(node.args[0]):
            path = _norm(raw)
            if path is None:
                continue
            (self.dirs if name in _DIR_CALLS else self.loads).append(path)


def _func_name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def read_steps(sources: Iterable[Tuple[str, str]]) -> SourceSteps:
    """The loader steps in ``sources``: (module path relative to site-packages, its text)."""
    dirs: Dict[str, None] = {}
    loads: Dict[str, None] = {}
    mods: Dict[str, None] = {}
    for rel, text in sources:
        if len(text) > MAX_SOURCE:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        reader = _Reader(rel.replace("\\", "/"))
        try:
            reader.visit(tree)
        except RecursionError:
            continue
        dirs.update(dict.fromkeys(reader.dirs))
        loads.update(dict.fromkeys(reader.loads))
        mods.update(dict.fromkeys(module_level_imports(tree)))
    return SourceSteps(tuple(dirs), tuple(loads), tuple(mods))


def module_level_imports(tree: ast.AST) -> List[str]:
    """Top-level names of the absolute imports a module runs when it is imported: statements
    outside functions and classes (inside ``try`` / ``if`` too: they run, or fail and are
    caught, before the package's extension modules load)."""
    out: List[str] = []
    todo = list(getattr(tree, "body", []))
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Import):
            out += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(node.module.split(".")[0])
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo += [n for n in getattr(node, field, []) if isinstance(n, ast.AST)]
    return out


def imported_siblings(package_init: str, text: str) -> List[str]:
    """Modules of the same package that its ``__init__.py`` imports at once (``from . import
    _distributor_init``, ``from ._delvewheel_patch import *``), as paths relative to
    site-packages: they run, and their loader steps happen, before the extension modules."""
    folder = posixpath.dirname(package_init.replace("\\", "/"))
    pkg = folder.replace("/", ".")
    try:
        tree = ast.parse(text) if len(text) <= MAX_SOURCE else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    out: List[str] = []
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.append(f"{folder}/{node.module.split('.')[0]}.py")
            elif node.level == 1 or (node.level == 0 and node.module == pkg):
                out += [f"{folder}/{a.name}.py" for a in node.names]
            elif node.level == 0 and node.module and node.module.startswith(pkg + "."):
                out.append(f"{folder}/{node.module[len(pkg) + 1:].split('.')[0]}.py")
        elif isinstance(node, ast.Import):
            out += [f"{folder}/{a.name[len(pkg) + 1:].split('.')[0]}.py" for a in node.names
                    if a.name.startswith(pkg + ".")]
    return [*dict.fromkeys(out)]
