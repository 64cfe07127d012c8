"""Never silent on an import failure; silent on text that is not an error (issue 14, item 4)."""

from __future__ import annotations

import pytest

from dldoctor.conditions import DataError, all_conditions, load_toml
from dldoctor.explainer import FALLBACK_NOTE, diagnose_text
from dldoctor.explainer.match import FALLBACK_BELOW, is_fallback
from dldoctor.explainer.signatures import load_signatures, parse_signatures
from dldoctor.render.text import render_explain

UNRECOGNISED_FAILURES = [
    # shapes no signature names: an import error of an unknown module, a DLL nobody lists,
    # an ELF library that is neither missing nor versioned, a crash on import
    "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n"
    "    import fancyext\nImportError: initialization of fancyext raised unreported exception",
    "OSError: [WinError 87] The parameter is incorrect. Error loading \"C:\\app\\x\\vendor.dll\"",
    "ImportError: /opt/app/lib/libvendor.so: ELF section name out of range",
    ">>> import torch\nSegmentation fault (core dumped)",
    ">>> torch.cuda.is_available()\nFalse",
    "ERROR: Could not find a version that satisfies the requirement fancylib==9.9",
]
NOT_ERRORS = [
    "How do I freeze the first layers of a ResNet when fine-tuning?",
    "Epoch 3/10 loss=0.231 acc=0.912\nEpoch 4/10 loss=0.201 acc=0.925",
    "import torch\nx = torch.ones(3)\nprint(x.sum())\ntensor(3.)",
    "Successfully installed torch-2.3.1 torchvision-0.18.1",
    "How many num_workers should a DataLoader use with 8 cores?",
    "torchrun --nproc_per_node=8 train.py  # launches 8 processes with NCCL",
    "",
]


@pytest.mark.parametrize("text", UNRECOGNISED_FAILURES)
def test_an_unrecognised_import_failure_gets_generic_causes_with_low_confidence(text: str) -> None:
    report = diagnose_text(text)
    assert report.shown, "silent on an import failure"
    assert is_fallback(report.shown[0])
    assert report.shown[0].confidence < FALLBACK_BELOW
    assert FALLBACK_NOTE in report.notes
    rendered = render_explain(report)
    assert "dldoctor check" in rendered and "dldoctor probe" in rendered
    assert "no known condition matched" not in rendered


@pytest.mark.parametrize("text", NOT_ERRORS)
def test_text_that_is_not_an_error_stays_unmatched(text: str) -> None:
    report = diagnose_text(text)
    assert report.shown == ()
    assert render_explain(report).startswith("dldoctor explain: no known condition matched")


def test_a_recognised_error_gets_no_fallback_note() -> None:
    report = diagnose_text("RuntimeError: Distributed package doesn't have NCCL built in")
    assert report.shown[0].slug == "nccl-unavailable" and not is_fallback(report.shown[0])
    assert FALLBACK_NOTE not in report.notes


def test_fallbacks_must_be_shapes_without_unless() -> None:
    slugs = [c.slug for c in all_conditions()]
    data = dict(load_toml("signatures.toml"))
    bad = dict(data, fallback=[{"id": "missing-dll", "anchor": "dll", "pattern": "dll",
                                "causes": {"import-failed": 0.1}}])
    with pytest.raises(DataError, match="shape-"):
        parse_signatures(bad, slugs)
    bad = dict(data, fallback=[{"id": "shape-x", "anchor": "dll", "pattern": "dll", "causes": {"import-failed": 0.1},
                                "unless": ["winerror-126"]}])
    with pytest.raises(DataError, match="unless"):
        parse_signatures(bad, slugs)
    assert load_signatures().fallbacks


def test_two_interpreters_count_only_when_their_versions_differ() -> None:
    """`distinct`: the site-packages of two different Pythons in one report point at an
    interpreter mismatch; the same Python named twice does not."""
    two = ("Requirement already satisfied: numpy in c:\\users\\u\\appdata\\local\\programs\\python\\python39\\lib\\"
           "site-packages (1.21.4)\n>>> print(sys.executable)\nc:\\users\\u\\appdata\\local\\programs\\python\\"
           "python35-32\\pythonw.exe\nModuleNotFoundError: No module named 'numpy'")
    one = two.replace("python35-32", "python39")
    hits = {c.slug: c for c in diagnose_text(two).shown}
    assert any(h.signature == "two-interpreters" for h in hits["interpreter-mismatch"].hits)
    assert not any(h.signature == "two-interpreters" for c in diagnose_text(one).shown for h in c.hits)


def test_distinct_must_name_a_group() -> None:
    slugs = [c.slug for c in all_conditions()]
    data = dict(load_toml("signatures.toml"))
    bad = dict(data, signature=[{"id": "x", "anchor": "py", "pattern": "py(?P<v>\\d)", "distinct": "w",
                                 "causes": {"import-failed": 0.1}}])
    with pytest.raises(DataError, match="distinct"):
        parse_signatures(bad, slugs)
