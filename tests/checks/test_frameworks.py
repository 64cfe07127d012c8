"""Framework-build checks on the real torch and tensorflow venvs. The faked facts are what
cannot exist here, each put where the collector puts it: an NVIDIA driver (the Gpu value of
the collector's seam) and a CPU without AVX (Host.cpu_features)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Dict

import pytest
from packaging.version import Version

from dldoctor.checks import run_checks
from dldoctor.checks._util import pip_of
from dldoctor.checks.frameworks import _check_known_bad, _cpu_facts
from dldoctor.conditions import DataError
from dldoctor.conditions.releases import _validate, dists_of, known_bad_releases
from dldoctor.explainer import explain as explain_text
from dldoctor.snapshot import gpu as gpu_mod
from dldoctor.snapshot.collect import collect_snapshot
from dldoctor.snapshot.model import PathTool, Snapshot

from ..builders import PLAIN, FakeDriver, findings, snapshot
from ..conftest import check_json, pip_install, slugs, venv_python
from .test_healthy_zoo import zoo_venv


@pytest.fixture(scope="module")
def torch_snap(torch_venv: Path) -> Snapshot:
    return collect_snapshot(str(venv_python(torch_venv)))


def slugs_of(snap: Snapshot) -> set:  # type: ignore[type-arg]
    return {f.condition.slug for r in run_checks(snap) for f in r.findings}


def test_real_torch_cpu_build_is_read_from_version_py(torch_snap: Snapshot) -> None:
    torch = torch_snap.framework("torch")
    assert torch is not None and torch.version.startswith("2.13.0")
    assert torch.values.get("cuda") is None and torch.file and torch.file.endswith("version.py")


def test_cpu_build_without_driver_is_quiet(torch_snap: Snapshot) -> None:
    assert not torch_snap.host.gpu.driver_present  # this machine, and CI, have no driver
    assert not slugs_of(torch_snap) & {"cpu-only-build", "gpu-build-without-gpu"}


def test_cpu_build_with_a_driver_is_cpu_only_build(torch_snap: Snapshot) -> None:
    gpu = gpu_mod.collect_gpu("linux", source=FakeDriver())
    assert gpu.driver_present and gpu.driver_version == "550.54.15" and gpu.cuda_driver_version == "12.4"
    snap = dataclasses.replace(torch_snap, host=dataclasses.replace(torch_snap.host, gpu=gpu))
    found = findings(snap, "cpu-only-build")
    assert len(found) == 1 and "NVIDIA H100 80GB HBM3" in found[0].message


def test_cuda_build_without_driver(torch_snap: Snapshot) -> None:
    torch = torch_snap.framework("torch")
    assert torch is not None
    cuda_torch = dataclasses.replace(torch, values={**torch.values, "cuda": "12.8"})
    snap = dataclasses.replace(torch_snap, frameworks=(cuda_torch,))
    found = findings(snap, "gpu-build-without-gpu")
    assert len(found) == 1 and "CUDA 12.8 build" in found[0].message


def test_known_bad_release_matches_the_installed_torch(torch_snap: Snapshot) -> None:
    assert "known-bad-release" not in slugs_of(torch_snap)  # 2.13.0 on Linux is not listed
    entry = {"dist": "torch", "specifier": "==2.13.0", "platforms": ["linux"], "symptom": "test symptom",
             "good": "2.12.0", "source": "https://example.invalid/1"}
    found = list(_check_known_bad(torch_snap, (entry,)))
    exe = torch_snap.interpreter.executable  # the tests' `python` on PATH is another environment's
    assert len(found) == 1 and found[0].fix == f"Run `{exe} -m pip install torch==2.12.0`."
    found = list(_check_known_bad(torch_snap, ({**entry, "platforms": ["windows"]},)))
    assert found == []


def test_shipped_data_flags_torch_290_on_windows_only(torch_snap: Snapshot) -> None:
    torch = next(d for d in torch_snap.distributions if d.name == "torch")
    dists = tuple(dataclasses.replace(d, version="2.9.0+cpu") if d is torch else d
                  for d in torch_snap.distributions)
    win = dataclasses.replace(torch_snap, distributions=dists,
                              host=dataclasses.replace(torch_snap.host, os="windows"))
    found = list(_check_known_bad(win, known_bad_releases()))
    assert len(found) == 1 and "WinError 1114" in found[0].message
    assert f"`{win.interpreter.executable} -m pip install torch==2.8.0`" in found[0].fix
    lin = dataclasses.replace(win, host=torch_snap.host)
    assert list(_check_known_bad(lin, known_bad_releases())) == []


def test_an_aarch64_regression_is_flagged_on_aarch64_only(torch_snap: Snapshot) -> None:
    # torch 2.4.0's aarch64 wheels die of SIGILL on a Raspberry Pi 4 (pytorch/pytorch#132032)
    torch = next(d for d in torch_snap.distributions if d.name == "torch")
    dists = tuple(dataclasses.replace(d, version="2.4.0") if d is torch else d for d in torch_snap.distributions)
    for machine, flagged in (("aarch64", True), ("arm64", True), ("x86_64", False)):
        snap = dataclasses.replace(torch_snap, distributions=dists,
                                   host=dataclasses.replace(torch_snap.host, machine=machine))
        found = [f for f in _check_known_bad(snap, known_bad_releases()) if "132032" in str(f.evidence)]
        assert bool(found) == flagged, machine
        if flagged:
            assert "Illegal instruction" in found[0].message and "torch==2.3.1" in (found[0].fix or "")


def test_paddle_25_libssl_release_is_flagged_under_either_name(torch_snap: Snapshot) -> None:
    """The release table lists Paddle 2.5.0-2.5.1 with paddlepaddle-gpu as a variant: either name is
    flagged; 2.5.2 is quiet, and the fix names 2.6.2, the oldest paddlepaddle PyPI still holds."""
    torch = next(d for d in torch_snap.distributions if d.name == "torch")
    for name in ("paddlepaddle", "paddlepaddle-gpu"):
        for version, flagged in (("2.5.1", True), ("2.5.2", False)):
            dists = tuple(dataclasses.replace(d, name=name, version=version) if d is torch else d
                          for d in torch_snap.distributions)
            found = list(_check_known_bad(dataclasses.replace(torch_snap, distributions=dists), known_bad_releases()))
            assert bool(found) is flagged, (name, version)
            if flagged:
                assert "libssl.so.1.1" in found[0].message and f"{name}==2.6.2" in found[0].fix


def test_release_variants_are_validated_and_covered() -> None:
    """`variants` names other builds of the same package; anything but a list of names fails at load."""
    entry = {"dist": "paddlepaddle", "specifier": "==2.5.1", "platforms": ["linux"], "symptom": "s", "good": "2.6.2",
             "source": "https://example.org/1"}
    assert dists_of(_validate(dict(entry, variants=["paddlepaddle-gpu"]))) == ("paddlepaddle", "paddlepaddle-gpu")
    assert dists_of(_validate(entry)) == ("paddlepaddle",)
    for bad in ("paddlepaddle-gpu", [""], [3]):
        with pytest.raises(DataError, match="variants must be a list"):
            _validate(dict(entry, variants=bad))


# --- transitive-framework-import -----------------------------------------------------


def test_noisereduce_imports_torch_at_import_time(torch_venv: Path, tmp_path: Path) -> None:
    target = tmp_path / "extra"
    pip_install(venv_python(torch_venv), "--no-deps", "noisereduce==3.0.3", target=target)
    report = check_json("--python", str(venv_python(torch_venv)), env={**PLAIN, "PYTHONPATH": str(target)},
                        cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "transitive-framework-import"]
    assert len(found) == 1 and found[0]["message"].startswith("import noisereduce imports torch")
    chain = [e["value"] for e in found[0]["evidence"] if e["label"].startswith("step")]
    assert chain[0].startswith("noisereduce/__init__.py:")
    assert chain[-1] in ("noisereduce/noisereduce.py:5", "noisereduce/spectralgate/__init__.py:4")
    assert "noisereduce 3.0.3 does not require torch" in found[0]["fix"]  # the fix is about this package


def test_a_package_that_requires_torch_may_import_it(torch_venv: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """torchmetrics declares torch in Requires-Dist: importing it is its purpose, no finding."""
    target = tmp_path / "extra"
    pip_install(venv_python(torch_venv), "--no-deps", "torchmetrics==1.4.0", target=target)
    monkeypatch.setenv("PYTHONPATH", str(target))
    snap = collect_snapshot(str(venv_python(torch_venv)), cwd=str(tmp_path))
    tm = snap.distribution("torchmetrics")
    assert tm is not None and any(i.framework == "torch" for i in tm.framework_imports)  # the import is seen
    assert findings(snap, "transitive-framework-import") == []


def test_a_package_named_for_torch_may_import_it_undeclared(torch_venv: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """torch-geometric leaves torch out of Requires-Dist on purpose (the user installs the CPU or
    CUDA build first) and imports it at import time: named for torch, built on it, no finding."""
    target = tmp_path / "extra"
    pip_install(venv_python(torch_venv), "--no-deps", "torch-geometric==2.8.1", target=target)
    monkeypatch.setenv("PYTHONPATH", str(target))
    snap = collect_snapshot(str(venv_python(torch_venv)), cwd=str(tmp_path))
    pyg = snap.distribution("torch-geometric")
    assert pyg is not None and not any("torch" in r for r in pyg.requires if "extra" not in r)
    assert any(i.framework == "torch" for i in pyg.framework_imports)  # the import is seen
    assert findings(snap, "transitive-framework-import") == []


def test_no_framework_no_import_analysis(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["--no-deps", "noisereduce==3.0.3"])
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "transitive-framework-import" not in slugs(report)


def test_mkl_2024_1_under_a_conda_torch_is_a_known_bad_dependency_release() -> None:
    """A conda environment cannot exist here: its conda-meta facts are built field by field."""
    snap = snapshot(host__os="linux", conda_versions={"mkl": "2024.1.0", "pytorch": "2.2.2", "python": "3.11.9"},
                    conda_packages=("mkl", "python", "pytorch"))
    (f,) = findings(snap, "known-bad-release")
    assert f.message.startswith("mkl 2024.1.0 on linux: import torch fails with `libtorch_cpu.so: undefined symbol: "
                                "iJIT_NotifyEvent`")
    assert f.fix == "Run `conda install mkl=2024.0`."
    assert "known-bad-release" in [c.condition.slug for c in explain_text(
        "ImportError: /env/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent")]


def test_mkl_release_is_quiet_when_healthy() -> None:
    for versions in ({"mkl": "2024.0.0", "pytorch": "2.2.2"}, {"mkl": "2024.1.0", "numpy": "1.26.4"}):
        assert findings(snapshot(host__os="linux", conda_versions=versions), "known-bad-release") == [], versions


def test_a_fix_runs_the_judged_interpreters_pip(torch_snap: Snapshot) -> None:
    """`python -m pip` only where the shell's `python` is the judged environment's: with
    `--python PY`, or dldoctor installed by pipx, a bare `python` installs somewhere else."""
    exe = torch_snap.interpreter.executable
    entry = {"dist": "torch", "specifier": "==2.13.0", "platforms": ["linux"], "symptom": "s", "good": "2.12.0",
             "source": "https://example.invalid/1"}

    def fix_with(snap: Snapshot) -> str:
        (found,) = _check_known_bad(snap, (entry,))
        return found.fix

    activated = dataclasses.replace(torch_snap, path_tools={"python": PathTool(str(Path(exe).parent / "python3"))})
    assert fix_with(activated) == "Run `python -m pip install torch==2.12.0`."
    other = dataclasses.replace(torch_snap, path_tools={"python": PathTool("/usr/bin/python")})
    assert fix_with(other) == f"Run `{exe} -m pip install torch==2.12.0`."
    spaced = dataclasses.replace(other, interpreter=dataclasses.replace(
        torch_snap.interpreter, executable="/opt/my envs/torch/bin/python"))
    assert fix_with(spaced) == "Run `'/opt/my envs/torch/bin/python' -m pip install torch==2.12.0`."
    # under home: `~/` stays outside the quotes, so the command works once home is shown as ~
    home = torch_snap.host.home.rstrip("/")
    at_home = dataclasses.replace(other, interpreter=dataclasses.replace(
        torch_snap.interpreter, executable=f"{home}/my envs/t$x/bin/python"))
    assert fix_with(at_home) == "Run `~/'my envs/t$x/bin/python' -m pip install torch==2.12.0`."
    win = dataclasses.replace(other, host=dataclasses.replace(torch_snap.host, os="windows"))
    for exe, start in ((r"C:\envs\t\Scripts\python.exe", r"C:\envs\t\Scripts\python.exe -m pip"),
                       (r"C:\Program Files\Python311\python.exe", r"& 'C:\Program Files\Python311\python.exe' -m pip")):
        exe_win = dataclasses.replace(win, interpreter=dataclasses.replace(torch_snap.interpreter, executable=exe))
        assert pip_of(exe_win) == start


# The CPUs the table's rows were confirmed on (qemu-x86_64 -cpu MODEL, instruction_sets.toml):
# Westmere has SSE4.2 but no AVX; Core 2 has neither. A CPU without AVX cannot exist here, so
# it is the one faked fact, put where the collector puts it (Host.cpu_features).
WESTMERE = {"sse4_1": True, "sse4_2": True, "popcnt": True, "avx": False, "avx2": False, "fma": False, "avx512f": False}
CORE2 = {**WESTMERE, "sse4_1": False, "sse4_2": False, "popcnt": False}


def on_cpu(snap: Snapshot, features: Dict[str, bool]) -> Snapshot:
    return dataclasses.replace(snap, host=dataclasses.replace(snap.host, cpu_features=features))


@pytest.fixture(scope="module")
def tf_snap() -> Snapshot:
    """The healthy zoo's real tensorflow-cpu venv (its imports proven there)."""
    return collect_snapshot(str(venv_python(zoo_venv("tensorflow"))))


def test_cpu_instructions_unsupported_is_found(tf_snap: Snapshot) -> None:
    tf = tf_snap.distribution("tensorflow-cpu")
    assert tf is not None
    found = findings(on_cpu(tf_snap, WESTMERE), "cpu-instructions-unsupported")
    assert [f.message.split(":")[0] for f in found] == [
        f"{tf.name} {tf.version} is built to use AVX, which this CPU does not offer"]
    assert "build TensorFlow from source" in found[0].fix and "pip install" not in found[0].fix
    # NumPy needs SSE4.2 only from 2.4 on: named on a Core 2, not on Westmere.
    numpy = tf_snap.distribution("numpy")
    assert numpy is not None
    core2 = findings(on_cpu(tf_snap, CORE2), "cpu-instructions-unsupported")
    numpy_too = {f"numpy {numpy.version}"} if Version(numpy.version) >= Version("2.4") else set()
    assert {f.message.split(" is built")[0] for f in core2} == {f"{tf.name} {tf.version}"} | numpy_too


def test_cpu_instructions_unsupported_is_quiet_when_healthy(tf_snap: Snapshot, torch_snap: Snapshot) -> None:
    # This machine's CPU, as the collector read it: it has AVX, and tensorflow imports here.
    assert tf_snap.host.cpu_features.get("avx") is True
    assert findings(tf_snap, "cpu-instructions-unsupported") == []
    # torch 2.13.0+cpu imports on a CPU without AVX (Westmere): no finding for it.
    assert findings(on_cpu(torch_snap, WESTMERE), "cpu-instructions-unsupported") == []
    # A CPU the OS was not asked about (another architecture, an older snapshot) is no CPU without AVX.
    unknown = on_cpu(tf_snap, {})
    assert findings(unknown, "cpu-instructions-unsupported") == []
    assert "not recorded" in _cpu_facts(unknown) and _cpu_facts(tf_snap) == ""
