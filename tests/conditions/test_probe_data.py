"""The probes' data files load, and broken ones are refused at load."""

from __future__ import annotations

import copy

import pytest

from dldoctor.conditions import DataError, version_key
from dldoctor.conditions import probe as probe_data_mod
from dldoctor.conditions.openmp import parse_openmp
from dldoctor.conditions.probe import (
    arch_supported,
    driver_table,
    min_driver,
    parse_driver_table,
    parse_probe_data,
    probe_data,
)


def test_shipped_tables_load():
    data = probe_data()
    assert "torch" in data.frameworks and "PyQt5" in data.troublemakers
    assert data.ntstatus[0xC0000005] == "STATUS_ACCESS_VIOLATION"
    table = driver_table()
    assert table.source.startswith("https://docs.nvidia.com/")
    assert [r[0] for r in table.toolkit] == sorted((r[0] for r in table.toolkit),
                                                   key=version_key, reverse=True)


def test_driver_minimums_grow_with_the_cuda_version():
    rows = sorted(driver_table().toolkit, key=lambda r: version_key(r[0]))
    for older, newer in zip(rows, rows[1:]):
        assert version_key(older[1]) < version_key(newer[1]), (older, newer)


@pytest.mark.parametrize(("cuda", "platform", "want"), [
    ("12.4", "linux", ("550.54.14", "525.60.13")),
    ("12.4.1", "linux", ("550.54.14", "525.60.13")),
    ("11.8", "windows", ("520.06", "452.39")),
    ("12.7", "linux", (None, "525.60.13")),  # no such toolkit row, minor compat still known
    ("99.0", "linux", (None, None)),
])
def test_min_driver(cuda, platform, want):
    assert min_driver(cuda, platform) == want


def _raw(name):
    return copy.deepcopy(probe_data_mod._load(name))


_PROBE, _DRIVERS = ("probe.toml", parse_probe_data), ("cuda_drivers.toml", parse_driver_table)
_OPENMP = ("openmp.toml", parse_openmp)


@pytest.mark.parametrize(("table", "breakage"), [
    (_PROBE, lambda d: d.pop("schema_version")),
    (_PROBE, lambda d: d["order"].pop("frameworks")),
    (_OPENMP, lambda d: d["runtime"][0].update(patterns=["(unclosed"])),
    (_PROBE, lambda d: d["ntstatus"][0].update(code="0xC0000005")),
    (_DRIVERS, lambda d: d.update(source="http://example.com")),
    (_DRIVERS, lambda d: d["toolkit"][0].update(linux="five-fifty")),
    (_DRIVERS, lambda d: d["toolkit"][1].update(cuda=d["toolkit"][0]["cuda"])),
    (_DRIVERS, lambda d: d["minor_compat"][0].update(major="12")),
])
def test_broken_data_is_refused(table, breakage):
    name, parse = table
    raw = _raw(name)
    breakage(raw)
    with pytest.raises(DataError):
        parse(raw)


@pytest.mark.parametrize(("cap", "archs", "ok"), [
    ((8, 6), ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], True),
    ((8, 9), ["sm_80"], True),  # same major, newer minor: cubin compatible
    ((12, 0), ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], False),
    ((12, 0), ["sm_90", "compute_90"], True),  # PTX JIT
    ((6, 1), ["sm_70", "sm_80", "sm_90"], False),  # seed 004: Pascal dropped
    ((10, 0), ["sm_90a"], False),
    ((9, 0), ["sm_90a"], True),
    ((7, 5), [], True),  # unknown list: not held against it
])
def test_arch_supported(cap, archs, ok):
    assert arch_supported(cap, archs) is ok
