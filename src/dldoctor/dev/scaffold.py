"""``python -m dldoctor.dev new-condition SLUG --topic TOPIC``: the skeleton of a new condition.

It finds the next free code (one above every code the data and the generated docs index have
ever shown, so a removed condition's code is never reused), then writes, each marked TODO:
the ``[[condition]]`` entry (conditions.toml), a ``[[signature]]`` (signatures.toml), a
registered check (``checks/<topic>.py``) and its tests (``tests/checks/test_<topic>.py``). The
test suite fails until every TODO is replaced (a scaffold marker in the data, a check test that
expects a real finding), so no step can be skipped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List

from dldoctor.conditions import DataError, load_toml

MARKER = "TODO"
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
    """{MARKER}: which facts of the snapshot show {slug}; yield finding("{slug}", message, evidence)."""
    return iter(())
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


def _append(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(old.rstrip("\n") + "\n" + text if old else text.lstrip("\n"), encoding="utf-8")


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
    _append(tree.data / "conditions.toml", _condition(code, slug))
    sigs = tree.data / "signatures.toml"
    text = sigs.read_text(encoding="utf-8")
    at = text.find("# Facts from the machine")
    sigs.write_text(text[:at] + _signature(slug) + text[at:] if at >= 0 else text + "\n" + _signature(slug),
                    encoding="utf-8")
    check_file = tree.checks / f"{topic}.py"
    _append(check_file, _check(slug, not check_file.exists()))
    test_file = tree.tests / f"test_{topic}.py"
    _append(test_file, _test(slug, not test_file.exists()))
    return [tree.data / "conditions.toml", sigs, check_file, test_file]


def markers(texts: Iterable[str]) -> List[str]:
    """Lines that still hold a scaffold marker."""
    return [ln.strip() for t in texts for ln in t.splitlines() if f"{MARKER}:" in ln]
