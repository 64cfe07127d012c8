"""``python -m dldoctor.dev new-condition SLUG --topic TOPIC``: the skeleton of a new condition.

It finds the next free code (one above every code the data and the generated docs index have
ever shown, so a removed condition's code is never reused), then writes, each marked TODO:
the ``[[condition]]`` entry (conditions.toml), a ``[[signature]]`` (signatures.toml), a
registered check (``checks/<topic>.py``) and its tests (``tests/checks/test_<topic>.py``). The
test suite fails until every TODO is replaced (a scaffold marker in the data, a check test that
expects a real finding), so no step can be skipped silently.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import FrozenSet, Iterable, List, Sequence, Tuple

from dldoctor.conditions import DataError, load_toml

MARKER = "TODO"
LINE_LENGTH = 120  # ruff's, for the import lines the scaffold rewrites
# What the skeletons use, as (module, relative level, names): added to an existing file's imports.
CHECK_IMPORTS = (("typing", 0, ("Iterator",)), ("dldoctor.checks", 0, ("check", "finding")),
                 ("dldoctor.model", 0, ("Finding",)), ("dldoctor.snapshot.model", 0, ("Snapshot",)))
TEST_IMPORTS = (("builders", 2, ("messages", "snapshot")),)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TOPIC = re.compile(r"^[a-z][a-z0-9_]*$")
_CODE = re.compile(r"\bDLD(\d{3})\b")


@dataclass(frozen=True)
class Tree:
    """Where the files live (the repository by default; a copy in tests)."""

    root: Path

    @property
    def data(self) -> Path:
        return self.root / "src" / "dldoctor" / "conditions"

    @property
    def checks(self) -> Path:
        return self.root / "src" / "dldoctor" / "checks"

    @property
    def tests(self) -> Path:
        return self.root / "tests" / "checks"

    @property
    def docs_index(self) -> Path:
        return self.root / "docs" / "rules" / "README.md"


def next_code(tree: Tree) -> str:
    """One above the highest code in conditions.toml and in the committed docs index."""
    codes: List[int] = [int(c["code"][3:]) for c in load_toml("conditions.toml", tree.data)["condition"]]
    if tree.docs_index.is_file():
        codes += [int(m.group(1)) for m in _CODE.finditer(tree.docs_index.read_text(encoding="utf-8"))]
    return f"DLD{max(codes, default=0) + 1:03d}"


def _condition(code: str, slug: str) -> str:
    t = MARKER
    return f'''
[[condition]]
code = "{code}"
slug = "{slug}"
title = "{t}: one line, what is wrong"
severity = "warning"
platforms = ["windows", "linux", "macos"]
summary = "{t}: what it is, in one or two sentences."
why = """{t}: why it breaks the import or the run, and when."""
example = \'\'\'{t}: the error text a user sees (explain must recognise it)\'\'\'
confirm = "{t}: how a user confirms it is this and not a look-alike."
fixes = [
  {{ text = "{t}: one concrete fix." }},
]
references = [
  {{ title = "{t}: a public source", url = "https://example.com/{t}" }},
]
'''


def _signature(slug: str) -> str:
    return f'''[[signature]]
id = "{slug}"
anchor = "{MARKER.lower()}"
pattern = \'\'\'{MARKER}: a regex over the error text (named groups become the subject)\'\'\'
causes = {{ {slug} = 0.5 }}

'''


def _check(slug: str, new_module: bool) -> str:
    head = ('"""TODO: what this topic\'s checks judge."""\n\nfrom __future__ import annotations\n\n'
            "from typing import Iterator\n\nfrom dldoctor.checks import check, finding\n"
            "from dldoctor.model import Finding\nfrom dldoctor.snapshot.model import Snapshot\n"
            if new_module else "")
    name = slug.replace("-", "_")
    return f'''{head}

@check("{slug}")
def {name}(snap: Snapshot) -> Iterator[Finding]:
    """{MARKER}: which facts of the snapshot show {slug}."""
    yield from ()  # {MARKER}: yield finding("{slug}", message, evidence, snapshot=snap)
'''


def _test(slug: str, new_module: bool) -> str:
    head = ('"""TODO: the checks of this topic, on real environments where they can exist and on\n'
            'synthetic snapshots (tests/builders.py) where they cannot."""\n\nfrom __future__ import annotations\n\n'
            "from ..builders import messages, snapshot\n" if new_module else "")
    name = slug.replace("-", "_")
    return f'''{head}

def test_{name}_is_found() -> None:
    snap = snapshot()  # {MARKER}: the facts that show {slug} (a real environment if it can exist here)
    assert messages(snap, "{slug}") == ["{MARKER}: the message the check writes"]


def test_{name}_is_quiet_when_healthy() -> None:
    assert messages(snapshot(), "{slug}") == []
'''


def _name_key(name: str) -> Tuple[int, str]:
    """isort's order by type (ruff's default): CONSTANTS, then Classes, then functions."""
    bare = name.split(" as ")[0]
    return (0 if bare.isupper() else 1 if bare[:1].isupper() else 2, bare)


def _section(node: ast.stmt) -> Tuple[int, Tuple[int, int, str]]:
    """(isort section, order within it) of a top-level import statement."""
    if isinstance(node, ast.ImportFrom):
        level, module, kind = node.level, node.module or "", 1
    else:
        level, module, kind = 0, node.names[0].name if isinstance(node, ast.Import) else "", 0
    root = module.split(".")[0]
    if level:
        return 4, (-level, kind, module)  # relative imports: furthest first
    stdlib: FrozenSet[str] = getattr(sys, "stdlib_module_names", frozenset())
    section = 0 if root == "__future__" else 1 if root in stdlib else 3 if root == "dldoctor" else 2
    return section, (0, kind, module.lower())  # `import x` before `from x import`


def _import_line(module: str, level: int, names: Sequence[str]) -> str:
    head = f"from {'.' * level}{module} import "
    ordered = sorted(dict.fromkeys(names), key=_name_key)
    line = head + ", ".join(ordered)
    if len(line) <= LINE_LENGTH:
        return line + "\n"
    return head + "(\n" + "".join(f"    {n},\n" for n in ordered) + ")\n"


def _with_import(text: str, module: str, level: int, names: Sequence[str]) -> str:
    """``text`` with ``names`` imported from ``module``: merged into its import, or a new one
    placed where ruff's isort puts it, so that an appended skeleton runs and lints clean."""
    lines = text.splitlines(keepends=True)
    imports = [n for n in ast.parse(text).body if isinstance(n, (ast.Import, ast.ImportFrom))]
    for node in imports:
        if isinstance(node, ast.ImportFrom) and node.module == module and node.level == level:
            have = [a.name + (f" as {a.asname}" if a.asname else "") for a in node.names]
            bound = {a.asname or a.name for a in node.names}
            if all(n in bound for n in names):
                return text
            new = _import_line(module, level, [*have, *names])
            return "".join(lines[: node.lineno - 1]) + new + "".join(lines[node.end_lineno or node.lineno:])
    new = _import_line(module, level, names)
    probe = ast.parse(new).body[0]
    section, order = _section(probe)
    same = [n for n in imports if _section(n)[0] == section]
    after = [n for n in same if _section(n)[1] > order]
    if after:
        at = after[0].lineno - 1  # before the first that sorts after it
    elif same:
        at = same[-1].end_lineno or same[-1].lineno  # after the last of its section
    else:  # a section of its own, between the sections below and above it
        below = [n for n in imports if _section(n)[0] < section]
        above = [n for n in imports if _section(n)[0] > section]
        if below:
            at, new = below[-1].end_lineno or below[-1].lineno, "\n" + new
        elif above:
            at, new = above[0].lineno - 1, new + "\n"
        else:
            return new + "\n" + text
    return "".join(lines[:at]) + new + "".join(lines[at:])


def _append(path: Path, text: str, imports: Sequence[Tuple[str, int, Tuple[str, ...]]]) -> None:
    """Append a skeleton; to an existing Python file, with the imports the skeleton needs."""
    if not path.exists():
        path.write_text(text.lstrip("\n"), encoding="utf-8")
        return
    old = path.read_text(encoding="utf-8")
    for module, level, names in imports:
        old = _with_import(old, module, level, names)
    path.write_text(old.rstrip("\n") + "\n" + text, encoding="utf-8")


def new_condition(slug: str, topic: str, tree: Tree) -> List[Path]:
    """Write the four skeletons; return the files written. DataError on a bad or taken slug."""
    if not _SLUG.match(slug):
        raise DataError(f"{slug!r}: a slug is kebab-case (lower-case words joined by -)")
    if not _TOPIC.match(topic) or topic.startswith("_"):
        raise DataError(f"--topic {topic!r}: a module name such as 'environment' or 'gpu'")
    taken = {c["slug"] for c in load_toml("conditions.toml", tree.data)["condition"]}
    if slug in taken:
        raise DataError(f"{slug!r} exists already (`dldoctor rules {slug}`)")
    code = next_code(tree)
    _append(tree.data / "conditions.toml", _condition(code, slug), ())
    sigs = tree.data / "signatures.toml"
    text = sigs.read_text(encoding="utf-8")
    at = text.find("# Facts from the machine")
    sigs.write_text(text[:at] + _signature(slug) + text[at:] if at >= 0 else text + "\n" + _signature(slug),
                    encoding="utf-8")
    check_file = tree.checks / f"{topic}.py"
    _append(check_file, _check(slug, not check_file.exists()), CHECK_IMPORTS)
    test_file = tree.tests / f"test_{topic}.py"
    _append(test_file, _test(slug, not test_file.exists()), TEST_IMPORTS)
    return [tree.data / "conditions.toml", sigs, check_file, test_file]


def markers(texts: Iterable[str]) -> List[str]:
    """Lines that still hold a scaffold marker."""
    return [ln.strip() for t in texts for ln in t.splitlines() if f"{MARKER}:" in ln]
