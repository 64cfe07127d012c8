"""Weighing text candidates with machine facts and check results (pure, snapshot-driven)."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import pytest

from dldoctor import conditions
from dldoctor.explainer import Facts, facts_from_snapshot
from dldoctor.explainer.match import Candidate, match_text
from dldoctor.explainer.signatures import load_signatures
from dldoctor.explainer.weigh import weigh, weigh_facts
from dldoctor.model import CheckResult, Evidence, Finding
from dldoctor.snapshot.model import Snapshot

WINERROR_1114 = (
    "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. "
    'Error loading "C:\\env\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.'
)


def _snapshot(
    os: str = "windows",
    torch: str = "2.9.0+cpu",
    cuda: Any = None,
    driver: Any = False,
    bits: int = 64,
) -> Snapshot:
    """A real Snapshot, reduced to what explain reads (the rest keeps its defaults)."""
    return Snapshot.from_dict(_raw(os, torch, cuda, driver, bits))


def _raw(os: str, torch: str, cuda: Any, driver: Any, bits: int) -> Dict[str, Any]:
    return {
        "schema_version": 1,
        "host": {"os": os, "machine": "AMD64", "gpu": {"driver_present": driver}},
        "interpreter": {"bits": bits, "version": "3.11.9"},
        "frameworks": [{"name": "torch", "dist": "torch", "version": torch, "values": {"cuda": cuda}}],
    }


def _ranked(snapshot: Any, results: Tuple[CheckResult, ...] = ()) -> Tuple[Candidate, ...]:
    sigs = load_signatures()
    return weigh(match_text(WINERROR_1114, sigs), snapshot, results, sigs)


def _conf(cands: Tuple[Candidate, ...], slug: str) -> float:
    return next(c.confidence for c in cands if c.slug == slug)


def test_known_bad_release_rises_when_that_release_is_installed() -> None:
    cands = _ranked(_snapshot(torch="2.9.0+cpu"))
    assert cands[0].slug == "known-bad-release"
    assert any(label == "torch_version" for label, _ in cands[0].evidence)


def test_known_bad_release_falls_when_another_release_is_installed() -> None:
    before = _conf(_ranked(None), "known-bad-release")
    after = _conf(_ranked(_snapshot(torch="2.8.0")), "known-bad-release")
    assert after < before / 2


def test_windows_only_causes_fall_on_linux() -> None:
    cands = _ranked(_snapshot(os="linux", torch="2.3.1"))
    assert _conf(cands, "hybrid-graphics") < 0.05
    assert _conf(cands, "missing-vc-runtime") < 0.05
    assert cands[0].slug not in ("hybrid-graphics", "missing-vc-runtime")


def _result(slug: str, found: bool, skipped: str = "") -> CheckResult:
    cond = conditions.get(slug)
    findings = (
        (
            Finding(
                cond,
                "C:\\env\\Lib\\site-packages\\torch\\lib is on PATH",
                (Evidence("PATH[2]", "C:\\env\\Lib\\site-packages\\torch\\lib"),),
            ),
        )
        if found
        else ()
    )
    return CheckResult(cond, findings, skipped)


def test_a_finding_of_the_same_condition_confirms_it_and_is_shown() -> None:
    cands = _ranked(_snapshot(torch="2.8.0"), (_result("path-pollution", True),))
    assert cands[0].slug == "path-pollution"
    labels = [label for label, _ in cands[0].evidence]
    assert "check DLD002" in labels and "PATH[2]" in labels


def test_a_check_that_ran_and_found_nothing_lowers_the_candidate() -> None:
    base = _conf(_ranked(_snapshot()), "path-pollution")
    passed = _conf(_ranked(_snapshot(), (_result("path-pollution", False),)), "path-pollution")
    skipped = _conf(_ranked(_snapshot(), (_result("path-pollution", False, "n/a"),)), "path-pollution")
    assert passed < base and skipped == base


def test_cpu_build_and_gpu_facts() -> None:
    sigs = load_signatures()
    text_cands = match_text("AssertionError: Torch not compiled with CUDA enabled", sigs)
    cpu = weigh(text_cands, _snapshot(cuda=None, driver=True), (), sigs)
    gpu = weigh(text_cands, _snapshot(torch="2.3.1+cu121", cuda="12.1", driver=False), (), sigs)
    assert cpu[0].slug == "cpu-only-build"
    assert gpu[0].slug == "code-requires-cuda"


def test_snapshot_object_and_dict_give_the_same_facts() -> None:
    raw = _raw("windows", "2.9.0", "12.6", True, 32)
    expected = Facts("windows", "2.9.0", "12.6", "true", "32")
    assert facts_from_snapshot(raw) == expected
    assert facts_from_snapshot(Snapshot.from_dict(raw)) == expected
    assert facts_from_snapshot(_snapshot(cuda=None)).torch_cuda == "none"


@pytest.mark.parametrize(
    "junk",
    [
        None,
        42,
        "snapshot",
        [],
        {"host": 3},
        {"frameworks": 7},
        {"frameworks": [None, {"name": 1}]},
        {"interpreter": {"bits": "x"}},
    ],
)
def test_odd_snapshots_give_unknown_facts_never_errors(junk: Any) -> None:
    facts = facts_from_snapshot(junk)
    assert facts.torch_version is None and facts.python_bits is None


def test_confidence_stays_a_probability() -> None:
    sigs = load_signatures()
    cands = match_text(
        "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.",
        sigs,
    )
    results = tuple(_result("duplicate-openmp", True) for _ in range(5))
    out = weigh_facts(cands, Facts(os="windows"), results, sigs)
    assert 0 < out[0].confidence <= 0.99
