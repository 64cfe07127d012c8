"""Native libraries no distribution lists (copied in by hand, conda, develop installs) are
seen: scanned under every sys.path entry, owned by "no package" (issue 12 point 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from dldoctor.checks import run_checks

from ..conftest import site_packages
from .conftest import gcc_shared, snapshot_of


def test_two_hand_copied_copies_of_one_soname_conflict(venv_factory: Callable[..., Path],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    site = site_packages(venv)
    for folder, body in (("vendor_a", "int f(void){return 1;}"), ("vendor_b", "int f(void){return 2;}")):
        gcc_shared(site / folder / "libdup.so.1", body, soname="libdup.so.1")
    snap = snapshot_of(venv, monkeypatch)
    unowned = sorted(lib.path for lib in snap.libraries if lib.dist is None)
    assert unowned == [str(site / "vendor_a" / "libdup.so.1"), str(site / "vendor_b" / "libdup.so.1")]
    found = [f for r in run_checks(snap, select=["dll-version-conflict"]) for f in r.findings]
    assert [f.message.split(";")[0] for f in found] == [
        "libdup.so.1 is shipped with different content by no package"]
    assert sorted(e.value.split(" (")[0] for e in found[0].evidence if e.label == "copy of no package") == unowned


def test_identical_unowned_copies_and_stdlib_folders_are_quiet(venv_factory: Callable[..., Path],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    site = site_packages(venv)
    one = gcc_shared(site / "vendor_a" / "libsame.so.1", "int f(void){return 1;}", soname="libsame.so.1")
    (site / "vendor_b").mkdir()
    (site / "vendor_b" / "libsame.so.1").write_bytes(one.read_bytes())
    snap = snapshot_of(venv, monkeypatch)
    assert not any("lib-dynload" in lib.path for lib in snap.libraries)
    assert [f for r in run_checks(snap, select=["dll-version-conflict"]) for f in r.findings] == []
