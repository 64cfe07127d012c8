"""The condition data: schema enforced at load, codes stable, docs generated from it."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest

from dldoctor import conditions
from dldoctor.conditions import DataError, load_toml, parse_conditions
from dldoctor.docs import render_page

from ..conftest import ROOT, run_dldoctor

DESIGN_SLUGS = [
    "missing-vc-runtime", "path-pollution", "dll-version-conflict", "import-order-conflict",
    "duplicate-openmp", "transitive-framework-import", "known-bad-release", "hybrid-graphics",
    "gpu-build-without-gpu", "cpu-only-build", "driver-too-old", "gpu-arch-unsupported",
    "cuda-toolkit-mismatch", "shadowed-module", "interpreter-mismatch", "python-32bit",
    "unsupported-python", "wrong-index-variant", "duplicate-install", "corrupt-install",
    "missing-shared-library", "symbol-mismatch", "glibcxx-too-old", "wrong-architecture",
    "ld-library-path-override", "multiprocessing-main-guard", "dataloader-worker-crash",
    "pagefile-too-small", "cuda-ipc-unsupported", "gpu-driver-timeout", "conda-solver-conflict",
    "extension-abi-mismatch", "code-requires-cuda", "nccl-unavailable", "extension-build-env",
]


def test_every_design_slug_has_a_condition() -> None:
    have = {c.slug for c in conditions.all_conditions()}
    assert set(DESIGN_SLUGS) <= have


def test_codes_are_assigned_once_in_design_order() -> None:
    # Codes are never reused or renumbered: DLD001.. follow DESIGN §5's order.
    codes = {c.slug: c.code for c in conditions.all_conditions()}
    assert [codes[s] for s in DESIGN_SLUGS] == [f"DLD{i:03d}" for i in range(1, len(DESIGN_SLUGS) + 1)]


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
