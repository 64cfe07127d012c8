"""The condition data: schema enforced at load, codes stable, docs generated from it."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from dldoctor import conditions
from dldoctor.conditions import DataError, load_toml, parse_conditions
from dldoctor.docs import main as docs_main
from dldoctor.docs import published_codes, render_page, renumbered

from ..conftest import ROOT, run_dldoctor


def test_published_codes_are_never_renumbered_reused_or_dropped() -> None:
    """The committed docs index is the record of every code ever published (users --ignore
    them); the data must keep each one, and docs generation refuses to rewrite it otherwise."""
    published = published_codes(ROOT / "docs" / "rules" / "README.md")
    assert len(published) >= 35 and published["shadowed-module"] == "DLD014"
    assert renumbered(published) == []


def test_docs_generation_refuses_a_renumbered_code(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("| DLD099 | [shadowed-module](shadowed-module.md) | x | error | |\n"
                                        "| DLD001 | [gone-slug](gone-slug.md) | x | error | |\n")
    assert docs_main(["--dir", str(tmp_path)]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
    problems = renumbered(published_codes(tmp_path / "README.md"))
    assert any("shadowed-module was published as DLD099" in p for p in problems)
    assert any("DLD001 belonged to gone-slug" in p for p in problems)


def test_lookup_by_code_any_case_and_slug() -> None:
    assert conditions.get("dld014").slug == "shadowed-module"
    assert conditions.get("shadowed-module").code == "DLD014"
    with pytest.raises(KeyError):
        conditions.get("no-such-thing")


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda c: c.pop("fixes"), "missing key 'fixes'"),
        (lambda c: c.update(code="X1"), "code must look like"),
        (lambda c: c.update(slug="Not Kebab"), "kebab-case"),
        (lambda c: c.update(severity="fatal"), "unknown severity"),
        (lambda c: c.update(platforms=["beos"]), "platforms"),
        (lambda c: c.update(references=[{"title": "x", "url": "http://insecure"}]), "https"),
        (lambda c: c.update(extra=1), "unknown keys"),
    ],
)
def test_schema_rejects_broken_entries(mutate, message) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(load_toml("conditions.toml"))
    mutate(data["condition"][0])
    with pytest.raises(DataError, match=message):
        parse_conditions(data)


def test_schema_rejects_duplicate_codes() -> None:
    data = copy.deepcopy(load_toml("conditions.toml"))
    data["condition"][1]["code"] = data["condition"][0]["code"]
    with pytest.raises(DataError, match="duplicate code"):
        parse_conditions(data)


def test_docs_pages_are_in_sync_with_data() -> None:
    done = subprocess.run([sys.executable, "-m", "dldoctor.docs", "--check", "--dir", str(ROOT / "docs" / "rules")],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"run `python -m dldoctor.docs`: {done.stderr}"


def test_rules_prints_the_same_page_as_the_docs() -> None:
    done = run_dldoctor("rules", "DLD014")
    assert done.returncode == 0
    assert done.stdout == render_page(conditions.get("shadowed-module"))
    assert "## Fix" in done.stdout and "## References" in done.stdout


def test_rules_lists_every_condition() -> None:
    done = run_dldoctor("rules")
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == len(conditions.all_conditions())
