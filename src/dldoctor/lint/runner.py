"""Lint paths: find files, decide what each file is, run the rules, apply noqa and selection.

What a file is decides which rules apply (the documented rule, see ``classify``):

* notebook (.ipynb): cells run interactively in a kernel, not re-imported by spawn children,
  so the main-guard rule does not apply (spawning from a notebook is a different problem);
  the import-order and CUDA IPC rules do.
* entry script: a ``.py`` with an ``if __name__ == "__main__":`` block, a shebang, named
  ``__main__.py``, or reading ``sys.argv`` / calling ``parse_args()`` at import time.
* library module: a ``.py`` in a folder with ``__init__.py`` that is none of the above. It is
  imported, not run, so the main-guard rule skips it unless ``script=True`` (``--script``)
  says it is run as a script anyway.
* a ``.py`` outside any package that is not an entry script is both: flat projects run and
  import such files alike, so the main-guard rule checks it.

The transitive-framework-import rule checks the library modules (in a package, not an entry
script): a flat-layout file cannot be told apart from a script, and a script that imports the
framework it exists for is not a finding. One file that cannot be read or parsed is reported
as an error and never stops the others.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Sequence, Tuple

from dldoctor import conditions
from dldoctor.errors import DldoctorError
from dldoctor.inputs import kind_of
from dldoctor.lint.analysis import ModuleInfo, has_main_guard
from dldoctor.lint.data import apis
from dldoctor.lint.model import Context, Hit, LintFinding, LintResult
from dldoctor.lint.rules import cuda_ipc, framework_import, import_order, main_guard
from dldoctor.lint.source import Source, SourceError, parse, parse_noqa, read_source, walk

Rule = Callable[[Context], Iterator[Hit]]
RULES: Tuple[Tuple[str, Rule], ...] = (
    (import_order.SLUG, import_order.check),
    (framework_import.SLUG, framework_import.check),
    (main_guard.SLUG, main_guard.check),
    (cuda_ipc.SLUG, cuda_ipc.check),
)
RULE_SLUGS = tuple(slug for slug, _ in RULES)


def resolve_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> FrozenSet[str]:
    """Slugs of the rules to run; codes or slugs in, DldoctorError for unknown ones."""

    def slugs(items: Iterable[str]) -> FrozenSet[str]:
        out = set()
        for item in items:
            for part in item.split(","):
                if not part.strip():
                    continue
                try:
                    slug = conditions.get(part).slug
                except KeyError:
                    raise DldoctorError(f"unknown rule {part.strip()!r}") from None
                if slug not in RULE_SLUGS:
                    codes = ", ".join(conditions.get(s).code for s in RULE_SLUGS)
                    raise DldoctorError(f"{part.strip()} is not a lint rule (lint rules: {codes})")
                out.add(slug)
        return frozenset(out)

    chosen = slugs(select) or frozenset(RULE_SLUGS)
    return chosen - slugs(ignore)


def classify(source: Source, ctx_info: ModuleInfo, force_script: bool) -> Tuple[bool, bool]:
    """(runs as a script, imported by other code) for one file; see the module docstring."""
    if source.notebook:
        return False, False
    tree = ctx_info.tree
    entry = source.path.name == "__main__.py" or source.shebang or has_main_guard(tree)
    argv = ctx_info.reach(tree.body).argv
    script = force_script or entry or argv or not source.in_package
    return script, source.in_package and not (entry or argv)


def display_path(path: Path) -> str:
    """The path as the user gave it, with the home folder as ``~``."""
    text = str(path)
    home = str(Path("~").expanduser())
    if home not in ("", "/", "~") and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    return text


def lint_source(
    source: Source, rules: FrozenSet[str], force_script: bool = False
) -> List[LintFinding]:
    """Findings for one read source (SourceError when it does not parse).

    A tree the parser accepts can still be deeper than the recursive analyses can walk
    (``a.b.b.b...`` 600 deep): that file is reported as not analysed, never a traceback."""
    tree = parse(source)
    try:
        return _findings(source, tree, rules, force_script)
    except RecursionError:
        raise SourceError("nested too deeply to analyse, not linted") from None


def _findings(source: Source, tree: ast.Module, rules: FrozenSet[str], force_script: bool) -> List[LintFinding]:
    info = ModuleInfo(tree)
    script, importable = classify(source, info, force_script)
    ctx = Context(source, tree, info, apis(), script, importable)
    noqa = parse_noqa(source.text)
    shown = display_path(source.path)
    out: List[LintFinding] = []
    seen = set()
    for slug, rule in RULES:
        if slug not in rules:
            continue
        cond = conditions.get(slug)
        for hit in rule(ctx):
            silenced = hit.line in noqa and (noqa[hit.line] is None or cond.code in noqa[hit.line])  # type: ignore[operator]
            key = (slug, hit.line, hit.col)
            if silenced or key in seen:
                continue
            seen.add(key)
            cell, line = source.locate(hit.line)
            out.append(
                LintFinding(
                    condition=cond,
                    path=shown,
                    line=line,
                    col=hit.col,
                    message=fit(hit.message),
                    fix=hit.fix or cond.fix_for("any"),
                    evidence=hit.evidence,
                    cell=cell,
                )
            )
    out.sort(key=lambda f: (f.cell or 0, f.line, f.col, f.condition.code))
    return out


def fit(message: str, limit: int = 79) -> str:
    """One-line messages stay under 80 characters (the Django habit)."""
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _files(paths: Sequence[str], errors: List[Tuple[str, str]]) -> List[Path]:
    out: Dict[str, Path] = {}
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for found in walk(path):
                out.setdefault(os.path.normpath(found), found)
        elif path.is_file():
            out.setdefault(os.path.normpath(path), path)
        elif path.exists():
            errors.append((display_path(path), f"not a regular file ({kind_of(path.stat().st_mode)})"))
        else:
            errors.append((display_path(path), "no such file or directory"))
    return list(out.values())


def lint_paths(
    paths: Sequence[str],
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    force_script: bool = False,
) -> LintResult:
    """Lint files and directories (walked for .py and .ipynb)."""
    rules = resolve_rules(select, ignore)
    errors: List[Tuple[str, str]] = []
    warnings: List[Tuple[str, str]] = []
    findings: List[LintFinding] = []
    files = _files(paths, errors)
    for path in files:
        try:
            source = read_source(path)
            findings.extend(lint_source(source, rules, force_script))
        except SourceError as exc:
            errors.append((display_path(path), str(exc)))
            continue
        warnings.extend((display_path(path), p) for p in source.problems)
    return LintResult(tuple(findings), tuple(errors), tuple(warnings), len(files))
