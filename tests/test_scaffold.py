"""`python -m dldoctor.dev new-condition`: the skeletons it writes are valid data and code in
the right places, with the next free code; and the suite refuses what a newcomer leaves out
(a scaffold marker, a check without a test)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dldoctor import conditions
from dldoctor.checks import registry
from dldoctor.conditions import DataError, load_toml, parse_conditions
from dldoctor.dev import scaffold
from dldoctor.explainer.signatures import parse_signatures

from .conftest import ROOT

SLUG = "scaffold-example"  # never a real condition: the real data must not collide with it


@pytest.fixture
def tree(tmp_path: Path) -> scaffold.Tree:
    """A copy of the parts of the checkout the scaffold writes to."""
    for rel in ("src/dldoctor/conditions", "src/dldoctor/checks", "tests/checks", "docs/rules"):
        shutil.copytree(ROOT / rel, tmp_path / rel, ignore=shutil.ignore_patterns("__pycache__"))
    return scaffold.Tree(tmp_path)


def test_new_condition_writes_valid_skeletons(tree: scaffold.Tree) -> None:
    before = {c.code for c in parse_conditions(load_toml("conditions.toml", tree.data))}
    code = scaffold.next_code(tree)
    assert code not in before and int(code[3:]) == max(int(c[3:]) for c in before) + 1
    files = scaffold.new_condition(SLUG, "leftovers", tree)
    conds = parse_conditions(load_toml("conditions.toml", tree.data))
    new = next(c for c in conds if c.slug == SLUG)
    assert new.code == code
    sigs = parse_signatures(load_toml("signatures.toml", tree.data), [c.slug for c in conds])
    assert any(slug == SLUG for s in sigs.signatures for slug, _ in s.causes)
    for f in files[2:]:
        compile(f.read_text(encoding="utf-8"), str(f), "exec")
    assert f'@check("{SLUG}")' in (tree.checks / "leftovers.py").read_text(encoding="utf-8")
    assert scaffold.markers([f.read_text(encoding="utf-8") for f in files])


def test_existing_topic_gets_the_check_appended(tree: scaffold.Tree) -> None:
    before = (tree.checks / "installs.py").read_text(encoding="utf-8")
    scaffold.new_condition(SLUG, "installs", tree)
    after = (tree.checks / "installs.py").read_text(encoding="utf-8")
    assert after.startswith(before.rstrip("\n")) and after.count("@check(") == before.count("@check(") + 1
    compile(after, "installs.py", "exec")


def test_skeletons_appended_to_any_topic_import_what_they_use(tree: scaffold.Tree) -> None:
    """An existing check module or test file gets the imports its new skeleton uses (merged into
    its import lines, or added where isort puts them): the stubs run and lint clean as written."""
    topics = sorted({p.stem for p in tree.checks.glob("[!_]*.py")} | {p.stem[5:] for p in tree.tests.glob("test_*.py")})
    for i, topic in enumerate(topics):
        scaffold.new_condition(f"{SLUG}-{i}", topic, tree)
    shutil.copy(ROOT / "pyproject.toml", tree.root)  # the project's ruff settings
    # dldoctor is first-party though only part of it is copied; F401 aside: a new module's stub
    # imports `finding` for the body still to be written
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "F,I,E,W",
                           "--ignore", "F401", "--config", "lint.isort.known-first-party = ['dldoctor']",
                           "src/dldoctor/checks", "tests/checks"], cwd=tree.root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("slug", "topic", "message"), [
    ("Pip Leftovers", "installs", "kebab-case"),
    ("shadowed-module", "installs", "exists already"),
    (SLUG, "_util", "module name"),
])
def test_bad_requests_are_refused(tree: scaffold.Tree, slug: str, topic: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        scaffold.new_condition(slug, topic, tree)


def test_the_command_prints_the_next_steps(tree: scaffold.Tree) -> None:
    done = subprocess.run([sys.executable, "-m", "dldoctor.dev", "new-condition", SLUG,
                           "--topic", "installs", "--root", str(tree.root)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "python -m dldoctor.docs" in done.stdout and "CONTRIBUTING.md" in done.stdout


def test_no_scaffold_marker_is_left_in_the_shipped_data_and_checks() -> None:
    files = [*(ROOT / "src/dldoctor/conditions").glob("*.toml"), *(ROOT / "src/dldoctor/checks").glob("*.py"),
             *(ROOT / "tests/checks").glob("*.py")]
    left = scaffold.markers(f.read_text(encoding="utf-8") for f in files)
    assert left == [], "replace the scaffold's TODOs: " + "; ".join(left[:5])


def test_every_check_has_a_test_that_names_it() -> None:
    texts = [p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "checks").glob("*.py")]
    untested = [slug for slug in registry() if not any(f'"{slug}"' in t for t in texts)]
    assert untested == [], f"checks without a test in tests/checks/: {untested}"


def test_the_contributing_example_is_no_condition_yet() -> None:
    """CONTRIBUTING.md walks a newcomer through adding an example slug; once that slug is real,
    its first command fails ("exists already"): pick another example then."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    slugs = set(re.findall(r"new-condition ([a-z0-9-]+)", text))
    assert slugs and not [s for s in slugs if conditions.exists(s)], slugs
