"""Import-time loader behaviour as data (conditions/preloads.toml), applied by both commands:
`check` loads a package's own preloads as roots of the environment's load graphs, `wheels`
builds its simulated imports from the same rows."""

from __future__ import annotations

import copy
import ntpath
from pathlib import Path

import pytest

from dldoctor.checks._native_graph import env_graphs
from dldoctor.conditions import DataError, load_toml
from dldoctor.conditions.preloads import parse_preloads
from dldoctor.loader.frameworks import import_plan, preloaded
from dldoctor.snapshot.collect import collect_snapshot

SITE = "C:\\venv\\Lib\\site-packages"


def test_check_judges_torchs_global_deps_as_a_root(torch_venv: Path) -> None:
    """torch/lib is a library folder (nothing there is judged alone) but torch loads
    libtorch_global_deps.so itself: the data makes it a root, resolved as ld.so would."""
    graphs = env_graphs(collect_snapshot(str(torch_venv / "bin" / "python")))
    assert graphs is not None
    (root,) = [g for g in graphs.graphs if g.root.endswith("torch/lib/libtorch_global_deps.so")]
    assert not root.missing and any(e.resolution.name == "libgomp.so.1" for e in root.edges)


def test_windows_plan_from_the_data() -> None:
    natives = [ntpath.join(SITE, *p.split("/")) for p in (
        "torch/lib/c10.dll", "torch/lib/torch_cpu.dll", "torch/_C.cp311-win_amd64.pyd",
        "torch/lib/asmjit.lib.dll.txt")]
    folders = {ntpath.join(SITE, "torch", "lib"), "C:\\venv\\Library\\bin"}
    plan = import_plan("torch", "windows", SITE, natives, ntpath, lambda f: f in folders,
                       prefix="C:\\venv", base_prefix="C:\\Python311")
    assert plan.dll_directories == (ntpath.join(SITE, "torch", "lib"), "C:\\venv\\Library\\bin")
    assert plan.loads == (natives[0], natives[1], natives[2])


def test_conventions_add_delvewheel_and_package_lib_folders() -> None:
    natives = [ntpath.join(SITE, *p.split("/")) for p in (
        "scipy.libs/libopenblas-abc.dll", "scipy/linalg/_fblas.cp311-win_amd64.pyd",
        "paddle/libs/mklml.dll", "deep/er/libs/x.dll")]
    plan = import_plan("mix", "windows", SITE, natives, ntpath, lambda f: True)
    assert plan.dll_directories == (ntpath.join(SITE, "paddle", "libs"), ntpath.join(SITE, "scipy.libs"))


def test_linux_preloads_are_only_the_named_files() -> None:
    rels = ["torch/lib/libtorch_global_deps.so", "torch/lib/libc10.so", "torch/_C.cpython-311-x86_64-linux-gnu.so"]
    assert preloaded("torch", "linux", rels) == ["torch/lib/libtorch_global_deps.so"]
    assert preloaded("Torch", "linux", rels) == preloaded("torch", "linux", rels)
    assert preloaded("numpy", "linux", rels) == []


@pytest.mark.parametrize("breakage", [
    lambda d: d["package"][0].update(platform="beos"),
    lambda d: d["package"][0].pop("source"),
    lambda d: d["convention"][0].update(dll_directory_of=[]),
    lambda d: d.update(schema_version=2),
])
def test_broken_rows_are_refused(breakage) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(load_toml("preloads.toml"))
    breakage(raw)
    with pytest.raises(DataError):
        parse_preloads(raw)
