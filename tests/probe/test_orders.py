"""The order probe on a real import-order conflict built with gcc (two copies of one SONAME)."""

from __future__ import annotations

import pytest

from dldoctor.probe import probe_findings, run_probes
from dldoctor.probe.imports import find_conflicts, order_candidates, order_pairs
from dldoctor.probe.model import ERROR, ImportProbe, LoadedLibrary


@pytest.fixture(scope="module")
def conflict_report(probe_site):
    return run_probes(None, ["ext_a", "ext_b"], orders=True, timeout=30, env=probe_site.env,
                      gpu=False)


def test_both_orders_run_and_exactly_one_fails(conflict_report):
    status = {p.modules: p.status for p in conflict_report.pairs}
    assert status == {("ext_a", "ext_b"): ERROR, ("ext_b", "ext_a"): "ok"}
    assert [p.status for p in conflict_report.imports] == ["ok", "ok"]  # each alone works


def test_conflict_names_the_working_order_and_the_copy_that_won(conflict_report, probe_site):
    (conflict,) = conflict_report.conflicts
    assert conflict.working == ("ext_b", "ext_a")
    assert conflict.failing.modules == ("ext_a", "ext_b")
    assert conflict.culprit is not None and conflict.rival is not None
    assert conflict.culprit.path == probe_site.lib("ext_a.libs/libconflict.so.1")
    assert conflict.culprit.owner == "pkg_a"
    assert conflict.rival.path == probe_site.lib("ext_b.libs/libconflict.so.1")
    assert conflict.rival.owner == "pkg_b"


def test_conflict_becomes_an_observed_import_order_finding(conflict_report):
    findings = [f for f in probe_findings(conflict_report)
                if f.condition.slug == "import-order-conflict"]
    assert len(findings) == 1
    f = findings[0]
    assert f.observed
    assert f.message == ("ext_a before ext_b fails, ext_b before ext_a works; "
                         "libconflict.so.1 from pkg_a won")
    assert f.fix.startswith("import ext_b before ext_a")
    labels = dict((e.label, e.value) for e in f.evidence)
    assert "undefined symbol: f_v2" in labels["fails"]


def test_the_losing_package_copy_is_a_run_time_dll_version_conflict(conflict_report):
    msgs = {f.message for f in probe_findings(conflict_report)
            if f.condition.slug == "dll-version-conflict"}
    assert "pkg_a's own libconflict.so.1 lost to another copy at run time" in msgs


def test_order_pairs_are_both_orders_of_each_combination():
    assert order_pairs(["a", "b", "c", "a"]) == [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"),
                                                 ("b", "c"), ("c", "b")]
    assert order_pairs(["a"]) == []


def test_order_candidates_follow_the_data_table():
    assert order_candidates(["PyQt5", "numpy", "cv2", "torch"]) == ["torch", "cv2", "PyQt5"]


def _probe(mods, status, loaded=()):
    return ImportProbe(tuple(mods), status, loaded=tuple(LoadedLibrary(p) for p in loaded))


def test_no_conflict_when_both_orders_fail_or_both_work():
    both_fail = [_probe("ab", ERROR), _probe("ba", ERROR)]
    both_work = [_probe("ab", "ok"), _probe("ba", "ok")]
    assert find_conflicts(both_fail) == [] and find_conflicts(both_work) == []


def test_a_hang_in_one_order_counts_as_a_failure():
    (c,) = find_conflicts([_probe("ab", "timeout", ["/x/libq.so.1"]),
                           _probe("ba", "ok", ["/y/libq.so.1"])])
    assert c.working == ("b", "a") and c.culprit is not None and c.culprit.path == "/x/libq.so.1"
