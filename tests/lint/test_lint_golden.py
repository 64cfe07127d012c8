"""Golden files: every finding must be marked inline (``# error: DLD026``), every mark found.

The comparison is exact, so a false positive and a false negative both fail. Files without
marks are the good examples (guarded idioms, library modules, notebooks' cells).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Dict, Set, Tuple

import pytest

from dldoctor.lint import lint_paths
from dldoctor.lint.runner import display_path

GOLDEN = Path(__file__).parent / "golden"
MARK = re.compile(r"#\s*error:\s*(DLD\d{3}(?:\s*,\s*DLD\d{3})*)")
Key = Tuple[object, int, str]  # (cell or None, line, code)


def marks_in_lines(lines, cell=None) -> Set[Key]:
    out: Set[Key] = set()
    for no, line in enumerate(lines, 1):
        m = MARK.search(line)
        if m:
            out |= {(cell, no, code.strip()) for code in m.group(1).split(",")}
    return out


def expected_marks(path: Path) -> Set[Key]:
    if path.suffix != ".ipynb":
        return marks_in_lines(path.read_text(encoding="utf-8").splitlines())
    out: Set[Key] = set()
    code_cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    for number, cell in enumerate(code_cells, 1):
        out |= marks_in_lines("".join(cell["source"]).splitlines(), number)
    return out


GOLDEN_FILES = sorted(p for p in GOLDEN.rglob("*") if p.suffix in (".py", ".ipynb"))


@pytest.fixture(scope="module")
def found() -> Dict[str, Set[Key]]:
    result = lint_paths([str(GOLDEN)])
    assert result.errors == ()
    out: Dict[str, Set[Key]] = {}
    for f in result.findings:
        out.setdefault(f.path, set()).add((f.cell, f.line, f.condition.code))
    return out


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_golden(path: Path, found: Dict[str, Set[Key]]) -> None:
    assert found.get(display_path(path), set()) == expected_marks(path)


def test_golden_covers_every_rule_both_ways() -> None:
    """Each rule has bad examples (marks) and the suite has unmarked good files."""
    codes = {k[2] for p in GOLDEN_FILES for k in expected_marks(p)}
    assert codes == {"DLD004", "DLD006", "DLD026", "DLD029"}
    good = [p for p in GOLDEN_FILES if not expected_marks(p) and p.name != "__init__.py"]
    assert len(good) >= 5


def test_every_golden_file_says_which_public_pattern_it_reflects() -> None:
    for path in GOLDEN_FILES:
        if path.suffix == ".py" and path.name != "__init__.py":
            head = path.read_text(encoding="utf-8").splitlines()[:6]
            assert any(line.startswith("# ") and len(line) > 20 for line in head), path


def test_notebook_cell_that_does_not_parse_is_a_warning_not_a_blind_spot() -> None:
    result = lint_paths([str(GOLDEN / "notebook.ipynb")])
    assert [m for _, m in result.warnings] == ["cell 5: cannot parse: invalid syntax (line 1)"]
    assert {f.cell for f in result.findings} == {2, 6}


def test_script_flag_lints_library_modules_as_scripts() -> None:
    result = lint_paths([str(GOLDEN / "pkg" / "data.py")], force_script=True)
    assert [(f.line, f.condition.code) for f in result.findings] == [(8, "DLD026")]
