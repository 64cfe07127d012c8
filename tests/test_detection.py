"""Every condition is detected by something, and each step of adding one fails loudly when
left out: an unknown slug in @check, a condition nothing detects, a check module nobody
imports (there is no list to forget: modules are discovered)."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest

from dldoctor import checks, conditions, detection
from dldoctor.conditions import DataError

from .conftest import run_dldoctor


def test_every_condition_is_detected_by_a_command() -> None:
    assert detection.undetected() == []
    detection.require_detection()


def test_every_condition_has_a_signature_explain_can_find() -> None:
    """Conditions are error texts too: `explain` must be able to name each from its example."""
    from dldoctor.explainer import diagnose_text

    for cond in conditions.all_conditions():
        ranked = [c.slug for c in diagnose_text(cond.example).shown]
        assert cond.slug in ranked, (
            f"{cond.slug}: its example is not recognised; add a [[signature]] to "
            "src/dldoctor/conditions/signatures.toml whose causes name it (CONTRIBUTING.md)")


def test_a_condition_nothing_detects_stops_rules_and_docs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    lonely = dataclasses.replace(conditions.get("nccl-unavailable"), code="DLD999", slug="lonely-condition")
    every = (*conditions.all_conditions(), lonely)
    monkeypatch.setattr(conditions, "all_conditions", lambda: every)
    detection.detectors.cache_clear()
    try:
        with pytest.raises(DataError, match=r"nothing detects: lonely-condition.*CONTRIBUTING\.md"):
            detection.require_detection()
        from dldoctor.docs import render_index

        with pytest.raises(DataError, match="lonely-condition"):
            render_index()
        from dldoctor.docs import main as regenerate_docs

        assert regenerate_docs(["--dir", str(tmp_path)]) == 2  # one line, not a traceback
        assert capsys.readouterr().err.startswith("dldoctor.docs: conditions that nothing detects: lonely-condition")
        assert list(tmp_path.iterdir()) == []
    finally:
        detection.detectors.cache_clear()


def test_no_explain_case_waits_in_pending_for_a_condition_that_exists() -> None:
    """Cases collected before their condition existed wait in tests/data/explain/pending/<split>/;
    adding the condition moves them into train/ or test/ (the same split) so explain is scored on them."""
    pending = Path(__file__).parent / "data" / "explain" / "pending"
    waiting = sorted(f"{p.parent.name}/{p.name}" for p in pending.glob("*/*.toml")
                     if conditions.exists(str(conditions.load_toml(p.name, p.parent).get("cause", ""))))
    assert waiting == [], f"move these cases out of {pending} (their condition exists now): {waiting}"


def test_a_check_for_an_unknown_slug_fails_at_load() -> None:
    with pytest.raises(DataError, match=r"check tests\.test_detection\.typo is registered for 'shadowed-modul'"):

        @checks.check("shadowed-modul")
        def typo(snap):  # type: ignore[no-untyped-def]
            return ()


def test_check_modules_are_discovered_not_listed() -> None:
    folder = Path(checks.__file__).parent
    files = {f"dldoctor.checks.{p.stem}" for p in folder.glob("*.py") if not p.name.startswith("_")}
    assert set(checks.check_modules()) == files
    registered = {e.fn.__module__ for entries in checks.registry().values() for e in entries}
    assert registered == files, "a check module that registers no check"
    for mod in files:
        importlib.import_module(mod)


def test_docs_say_which_commands_detect_a_condition() -> None:
    done = run_dldoctor("rules", "cuda-ipc-unsupported")
    assert done.returncode == 0
    section = done.stdout.split("## Detected by", 1)[1].split("##", 1)[0]
    assert "`dldoctor explain`" in section and "`dldoctor lint`" in section
    assert "`dldoctor check`" not in section
