"""`dldoctor diff` on real snapshots of real venvs that differ in one relevant way each, and
on a pair that differs only in ways that cannot explain a failure (quiet: exit 0)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Callable, Dict, List

import jsonschema
import pytest

from dldoctor.conditions import DataError, load_toml
from dldoctor.conditions.differences import KINDS, parse_weights
from dldoctor.fleet.diff import diff_snapshots
from dldoctor.snapshot.collect import load_snapshot
from dldoctor.snapshot.model import Gpu, GpuDevice
from tests.conftest import find_python, run_dldoctor
from tests.fleet.helpers import SCHEMAS, diff_json, foreign_gomp, take_snapshot


def kinds(doc: Dict[str, Any], weight: str = "") -> List[str]:
    return [f"{d['kind']}:{d['subject']}" for d in doc["differences"] if not weight or d["weight"] == weight]


@pytest.fixture(scope="module")
def torch_snap(torch_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return take_snapshot(torch_venv, tmp_path_factory.mktemp("torch") / "torch.json")


def test_same_environment_at_two_places_with_an_extra_pure_package_is_quiet(
        venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    a, b = venv_factory(["six==1.16.0"]), venv_factory(["six==1.16.0", "idna==3.7"])
    sa = take_snapshot(a, tmp_path / "a.json", env={"CUDA_VISIBLE_DEVICES": "0"})
    sb = take_snapshot(b, tmp_path / "b.json", env={"CUDA_VISIBLE_DEVICES": "1", "PIP_NO_CACHE_DIR": "1"})
    doc = diff_json(str(sa), str(sb))
    assert kinds(doc, "error") == [] and kinds(doc, "warning") == []
    # what differs is still said, at its weight: the extra package and the per-job GPU choice
    assert set(kinds(doc)) == {"package:idna", "variable:CUDA_VISIBLE_DEVICES"}, doc
    assert run_dldoctor("diff", str(sa), str(sb)).returncode == 0


def test_torch_on_one_side_only_is_an_error(torch_snap: Path, venv_factory: Callable[..., Path],
                                            tmp_path: Path) -> None:
    plain = take_snapshot(venv_factory(), tmp_path / "plain.json")
    doc = diff_json(str(torch_snap), str(plain))
    assert kinds(doc, "error") == ["framework-presence:torch"]
    (torch,) = [d for d in doc["differences"] if d["subject"] == "torch"]
    assert torch["a"] == "2.13.0+cpu" and torch["b"] is None
    assert "package:numpy" in kinds(doc, "warning")  # a framework dependency weighs more than others


def test_a_foreign_copy_on_ld_library_path_is_named_with_the_file_it_resolves_to(
        torch_venv: Path, torch_snap: Path, tmp_path: Path) -> None:
    folder = foreign_gomp(tmp_path / "modules" / "lib")
    odd = take_snapshot(torch_venv, tmp_path / "odd.json", env={"LD_LIBRARY_PATH": str(folder)})
    doc = diff_json(str(torch_snap), str(odd))
    assert kinds(doc, "error") == ["library-source:libgomp.so.1"], doc
    (gomp,) = [d for d in doc["differences"] if d["subject"] == "libgomp.so.1"]
    assert gomp["a"] == "<env>/lib/python3.11/site-packages/torch/lib/libgomp.so.1"
    assert gomp["b"].startswith(str(folder / "libgomp.so.1") + " [")  # the file, with its content stamp
    assert "variable:LD_LIBRARY_PATH" in kinds(doc, "warning")
    assert run_dldoctor("diff", str(torch_snap), str(odd)).returncode == 1


def test_an_identical_copy_elsewhere_is_a_warning_not_an_error(torch_venv: Path, torch_snap: Path,
                                                               tmp_path: Path) -> None:
    folder = tmp_path / "same"
    folder.mkdir()
    own = torch_venv / "lib/python3.11/site-packages/torch/lib/libgomp.so.1"
    (folder / "libgomp.so.1").write_bytes(own.read_bytes())
    odd = take_snapshot(torch_venv, tmp_path / "odd.json", env={"LD_LIBRARY_PATH": str(folder)})
    doc = diff_json(str(torch_snap), str(odd))
    assert "library-copy:libgomp.so.1" in kinds(doc, "warning") and kinds(doc, "error") == []


def test_another_python_minor_is_an_error(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    a = take_snapshot(venv_factory(python=find_python("3.10")), tmp_path / "a.json")
    b = take_snapshot(venv_factory(python=find_python("3.11")), tmp_path / "b.json")
    doc = diff_json(str(a), str(b))
    assert kinds(doc, "error") == ["python:"]
    assert "python-patch:" in kinds(doc, "info")


def test_a_changed_framework_dependency_is_a_warning(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    a = take_snapshot(venv_factory(["protobuf==4.25.3"]), tmp_path / "a.json")
    b = take_snapshot(venv_factory(["protobuf==5.27.0"]), tmp_path / "b.json")
    doc = diff_json(str(a), str(b))
    (pb,) = [d for d in doc["differences"] if d["subject"] == "protobuf"]
    assert (pb["weight"], pb["a"], pb["b"]) == ("warning", "4.25.3", "5.27.0")
    assert kinds(doc, "error") == []


def test_live_interpreter_against_its_own_snapshot_is_quiet(torch_venv: Path, torch_snap: Path) -> None:
    doc = diff_json(str(torch_snap), "--python", str(torch_venv))
    assert kinds(doc, "error") == [] and kinds(doc, "warning") == [], doc


# A CUDA build and an NVIDIA driver cannot exist on this machine: the one seam is the
# snapshot's framework values and GPU facts, set on a real torch snapshot.
def test_cuda_build_and_driver_differences(torch_snap: Path) -> None:
    base = load_snapshot(str(torch_snap))
    fw = base.framework("torch")
    assert fw is not None
    cuda_fw = dataclasses.replace(fw, version="2.13.0+cu124", values={**fw.values, "cuda": "12.4"})
    gpu = Gpu(True, "535.104.05", "12.2", (GpuDevice("NVIDIA A100-SXM4-80GB", 81920, "8.0"),), "nvml")
    cuda = dataclasses.replace(base, frameworks=(cuda_fw,), host=dataclasses.replace(base.host, gpu=gpu))
    report = diff_snapshots(base, cuda)
    got = {(d.kind, d.weight.label) for d in report.differences}
    assert {("framework-build", "error"), ("framework-version", "error"), ("driver-presence", "error"),
            ("driver", "warning"), ("gpu", "warning")} <= got
    (build,) = [d for d in report.differences if d.kind == "framework-build"]
    assert (build.a, build.b) == ("CPU", "CUDA 12.4")
    assert report.differences[0].weight.label == "error"  # heaviest first


def test_formats(torch_snap: Path, venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    plain = take_snapshot(venv_factory(), tmp_path / "plain.json")
    text = run_dldoctor("diff", str(torch_snap), str(plain)).stdout
    assert "✗ error   framework-presence: torch" in text and "A: 2.13.0+cpu" in text
    md = run_dldoctor("diff", str(torch_snap), str(plain), "--format", "markdown").stdout
    assert "| error | framework-presence | torch | `2.13.0+cpu` | *absent* |" in md
    assert str(Path.home()) not in text + md


@pytest.mark.parametrize("args, message", [
    (["one.json"], "diff compares two environments (snapshot files or --python), 1 given"),
    (["missing.json", "missing2.json"], "--snapshot missing.json: cannot read"),
    (["bad.json", "bad.json"], "--snapshot bad.json: not a dldoctor snapshot"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, args: List[str], message: str) -> None:
    (tmp_path / "bad.json").write_text('{"schema_version": 1, "host": 3}')
    done = run_dldoctor("diff", *args, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"dldoctor: {message}") and done.stderr.count("\n") == 1, done.stderr


def test_weights_table_schema() -> None:
    raw = load_toml("differences.toml")
    assert set(parse_weights(raw).kinds) == set(KINDS)
    schema = json.loads((SCHEMAS / "diff.schema.json").read_text(encoding="utf-8"))
    assert set(schema["$defs"]["difference"]["properties"]["kind"]["enum"]) == set(KINDS)
    for broken in ({**raw, "kind": {k: v for k, v in raw["kind"].items() if k != "python"}},
                   {**raw, "kind": {**raw["kind"], "gpu": {**raw["kind"]["gpu"], "weight": "fatal"}}},
                   {**raw, "variable": [{"pattern": "(", "weight": "info", "why": "x"}]},
                   {**raw, "extra": 1}):
        with pytest.raises(DataError):
            parse_weights(broken)
    jsonschema.Draft202012Validator.check_schema(schema)
