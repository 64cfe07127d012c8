"""The lint rules' data: which APIs start processes, which import orders are known to fail.

Kept in TOML next to this module (the auditwheel habit: policy in data files that say where
they came from) and validated here at load, so a broken entry fails in tests, not at a user.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Mapping, Tuple

from dldoctor.conditions import PLATFORMS, DataError, load_toml

DATA_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Spawner:
    """A call that starts worker processes; ``lazy`` ones start them only when used."""

    names: FrozenSet[str]
    lazy: bool
    starts_on: FrozenSet[str] = frozenset()  # lazy: the methods that start them
    when: Tuple[Tuple[str, FrozenSet[str]], ...] = ()  # keyword -> values that make it start
    count: Tuple[str, int, int] | None = None  # (keyword, position, default): how many


@dataclass(frozen=True)
class TrainerApi:
    """Trainers whose methods iterate DataLoaders (given, or from the model's hooks)."""

    names: FrozenSet[str]
    setup: Tuple[str, ...]
    methods: Tuple[Tuple[str, Tuple[str, ...]], ...]  # method -> hooks that return loaders

    def hooks(self, method: str) -> Tuple[str, ...] | None:
        return dict(self.methods).get(method)


@dataclass(frozen=True)
class Flow:
    """Library calls that iterate, wrap, hand on or ignore the values given to them."""

    consumers: FrozenSet[str]
    wrappers: FrozenSet[str]
    inert: FrozenSet[str]
    inert_methods: FrozenSet[str]
    passthrough_methods: FrozenSet[str]
    partial: FrozenSet[str]
    argparse: FrozenSet[str]
    configs: FrozenSet[str]
    cpu_counts: FrozenSet[str]
    assumed_cpus: int
    env_reads: FrozenSet[str]
    exits: FrozenSet[str]


@dataclass(frozen=True)
class Apis:
    spawners: Tuple[Spawner, ...]
    dataloaders: FrozenSet[str]
    num_workers_position: int
    dataset_position: int
    queues: FrozenSet[str]
    frameworks: FrozenSet[str]
    trainer: TrainerApi = TrainerApi(frozenset(), (), ())
    flow: Flow | None = None

    def spawner(self, qualname: str) -> Spawner | None:
        for sp in self.spawners:
            if qualname in sp.names:
                return sp
        return None


@dataclass(frozen=True)
class ImportOrder:
    """Importing any of ``first`` before any of ``then`` is reported to fail."""

    first: Tuple[str, ...]
    then: Tuple[str, ...]
    platforms: Tuple[str, ...]
    effect: str
    source: str
    also: Tuple[str, ...] = ()
    note: str = ""


def _load(name: str) -> Dict[str, Any]:
    return load_toml(name, DATA_DIR)


def _strs(raw: Mapping[str, Any], key: str, where: str) -> Tuple[str, ...]:
    val = raw.get(key)
    if not isinstance(val, list) or not val or not all(isinstance(v, str) and v for v in val):
        raise DataError(f"{where}: {key!r} must be a non-empty list of strings")
    return tuple(val)


def parse_apis(data: Mapping[str, Any]) -> Apis:
    """Validate ``apis.toml``."""
    if data.get("schema_version") != 1:
        raise DataError("apis: schema_version must be 1")
    spawners: List[Spawner] = []
    for i, raw in enumerate(data.get("spawner") or ()):
        where = f"apis: spawner[{i}]"
        if not isinstance(raw.get("lazy"), bool):
            raise DataError(f"{where}: needs lazy (bool)")
        starts_on = frozenset(_strs(raw, "starts_on", where)) if "starts_on" in raw else frozenset()
        if raw["lazy"] != bool(starts_on):
            raise DataError(f"{where}: lazy spawners need starts_on, eager ones none")
        when = raw.get("when", {})
        if not isinstance(when, dict):
            raise DataError(f"{where}: when must be a table")
        conds = tuple((k, frozenset(_strs(when, k, where))) for k in sorted(when))
        count = raw.get("count")
        if count is not None:
            ok = isinstance(count, dict) and isinstance(count.get("keyword"), str)
            if not (ok and all(isinstance(count.get(k), int) for k in ("position", "default"))):
                raise DataError(f"{where}: count needs keyword, position and default")
            count = (count["keyword"], count["position"], count["default"])
        names = frozenset(_strs(raw, "names", where))
        spawners.append(Spawner(names, raw["lazy"], starts_on, conds, count))
    if not spawners:
        raise DataError("apis: no [[spawner]] tables")
    dl = data.get("dataloader")
    if not isinstance(dl, dict):
        raise DataError("apis: missing [dataloader]")
    for key in ("num_workers_position", "dataset_position"):
        if not isinstance(dl.get(key), int) or dl[key] < 0:
            raise DataError(f"apis: dataloader.{key} must be a non-negative int")
    return Apis(
        spawners=tuple(spawners),
        dataloaders=frozenset(_strs(dl, "names", "apis: dataloader")),
        num_workers_position=dl["num_workers_position"],
        dataset_position=dl["dataset_position"],
        queues=frozenset(_strs(data.get("queues") or {}, "names", "apis: queues")),
        frameworks=frozenset(_strs(data.get("frameworks") or {}, "names", "apis: frameworks")),
        trainer=_parse_trainer(data.get("trainer")),
        flow=_parse_flow(data.get("flow")),
    )


def _parse_trainer(raw: Any) -> TrainerApi:
    where = "apis: trainer"
    if not isinstance(raw, dict) or not isinstance(raw.get("methods"), dict):
        raise DataError(f"{where}: needs names, setup and a methods table")
    methods = tuple((m, _strs(raw["methods"], m, where)) for m in sorted(raw["methods"]))
    return TrainerApi(frozenset(_strs(raw, "names", where)), _strs(raw, "setup", where), methods)


def _parse_flow(raw: Any) -> Flow:
    where = "apis: flow"
    if not isinstance(raw, dict):
        raise DataError(f"{where}: missing")
    cpus = raw.get("assumed_cpus")
    if not isinstance(cpus, int) or isinstance(cpus, bool) or cpus < 1:
        raise DataError(f"{where}: assumed_cpus must be a positive int")

    def names(key: str) -> FrozenSet[str]:
        return frozenset(_strs(raw, key, where))

    return Flow(
        consumers=names("consumers"),
        wrappers=names("wrappers"),
        inert=names("inert"),
        inert_methods=names("inert_methods"),
        passthrough_methods=names("passthrough_methods"),
        partial=names("partial"),
        argparse=names("argparse"),
        configs=names("configs"),
        cpu_counts=names("cpu_counts"),
        assumed_cpus=cpus,
        env_reads=names("env_reads"),
        exits=names("exits"),
    )


def parse_import_orders(data: Mapping[str, Any]) -> Tuple[ImportOrder, ...]:
    """Validate ``import_orders.toml``: every entry needs a public https source."""
    if data.get("schema_version") != 1:
        raise DataError("import_orders: schema_version must be 1")
    out: List[ImportOrder] = []
    known = {"first", "then", "platforms", "effect", "source", "also", "note"}
    for i, raw in enumerate(data.get("order") or ()):
        where = f"import_orders: order[{i}]"
        if set(raw) - known:
            raise DataError(f"{where}: unknown keys {sorted(set(raw) - known)}")
        platforms = _strs(raw, "platforms", where)
        if not set(platforms) <= set(PLATFORMS):
            raise DataError(f"{where}: platforms must be a subset of {PLATFORMS}")
        urls = (raw.get("source"), *raw.get("also", ()))
        if not all(isinstance(u, str) and u.startswith("https://") for u in urls):
            raise DataError(f"{where}: source and also must be https URLs")
        if not isinstance(raw.get("effect"), str) or not raw["effect"]:
            raise DataError(f"{where}: needs an effect")
        out.append(
            ImportOrder(
                first=_strs(raw, "first", where),
                then=_strs(raw, "then", where),
                platforms=platforms,
                effect=raw["effect"],
                source=raw["source"],
                also=tuple(raw.get("also", ())),
                note=str(raw.get("note", "")),
            )
        )
    if not out:
        raise DataError("import_orders: no [[order]] tables")
    return tuple(out)


@lru_cache(maxsize=1)
def apis() -> Apis:
    return parse_apis(_load("apis.toml"))


@lru_cache(maxsize=1)
def import_orders() -> Tuple[ImportOrder, ...]:
    return parse_import_orders(_load("import_orders.toml"))
