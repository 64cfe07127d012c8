"""The lint data files load and their schema rejects what it must."""

from __future__ import annotations

import pytest

from dldoctor import conditions
from dldoctor.conditions import DataError
from dldoctor.lint import RULE_SLUGS
from dldoctor.lint.data import apis, import_orders, parse_apis, parse_import_orders


def test_data_files_load() -> None:
    assert apis().spawner("torch.multiprocessing.spawn") is not None
    assert apis().spawner("multiprocessing.dummy.Pool") is None  # threads, not processes
    orders = import_orders()
    assert all(o.source.startswith("https://github.com/") for o in orders)
    assert any("PyQt5" in o.first and "torch" in o.then for o in orders)


def test_rules_are_conditions() -> None:
    assert [conditions.get(s).code for s in RULE_SLUGS] == ["DLD004", "DLD006", "DLD026", "DLD029"]


@pytest.mark.parametrize(
    "entry",
    [
        {
            "first": ["a"],
            "then": ["b"],
            "platforms": ["windows"],
            "effect": "x",
            "source": "http://x",
        },
        {
            "first": [],
            "then": ["b"],
            "platforms": ["windows"],
            "effect": "x",
            "source": "https://x",
        },
        {"first": ["a"], "then": ["b"], "platforms": ["dos"], "effect": "x", "source": "https://x"},
        {
            "first": ["a"],
            "then": ["b"],
            "platforms": ["linux"],
            "effect": "x",
            "source": "https://x",
            "bogus": 1,
        },
    ],
)
def test_import_order_schema_rejects(entry: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(DataError):
        parse_import_orders({"schema_version": 1, "order": [entry]})


def test_apis_schema_rejects() -> None:
    with pytest.raises(DataError):
        parse_apis({"schema_version": 1, "spawner": [{"names": ["a"]}]})
    with pytest.raises(DataError):
        parse_apis({"schema_version": 2})


def _apis_with(spawner: dict) -> dict:  # type: ignore[type-arg]
    import copy

    from dldoctor.conditions import load_toml
    from dldoctor.lint.data import DATA_DIR

    data = copy.deepcopy(load_toml("apis.toml", DATA_DIR))
    data["spawner"] = [spawner]
    return data


@pytest.mark.parametrize(
    "spawner",
    [
        {"names": ["a.Process"], "lazy": True},  # lazy needs the methods that start it
        {"names": ["a.Pool"], "lazy": False, "starts_on": ["start"]},  # eager starts on the call
        {"names": ["a.spawn"], "lazy": False, "count": {"keyword": "n"}},  # incomplete count
        {"names": ["a.P"], "lazy": True, "starts_on": ["x"], "when": ["backend"]},  # when is a table
    ],
)
def test_spawner_schema_rejects(spawner: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(DataError):
        parse_apis(_apis_with(spawner))


def test_apis_carry_the_measured_model() -> None:
    a = apis()
    assert a.spawner("concurrent.futures.ProcessPoolExecutor").starts_on == {"submit", "map"}
    assert a.spawner("multiprocessing.Process").starts_on == {"start"}
    assert not a.spawner("multiprocessing.Pool").lazy
    joblib = a.spawner("joblib.Parallel")
    assert dict(joblib.when) == {"backend": frozenset({"multiprocessing"})}
    assert a.trainer.hooks("fit") == ("train_dataloader", "val_dataloader")
    assert a.flow is not None and "builtins.len" in a.flow.inert
