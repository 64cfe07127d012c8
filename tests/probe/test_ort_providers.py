"""probe says which ONNX Runtime execution providers a real session loads
(microsoft/onnxruntime#21825, #25609: the CUDA provider fails to load and every session
silently runs on CPU). The real onnxruntime-gpu wheel from the registry loads here without
a GPU, and its CUDA provider fails for real (no CUDA libraries); the loaded path, which
needs a GPU, is judged on ProbeReport values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

import pytest

from dldoctor.probe.findings import probe_findings
from dldoctor.probe.model import OrtProvider, ProbeReport
from dldoctor.snapshot.model import Gpu

from ..conftest import cached_venv, check_json, make_venv, pip_download, run_dldoctor, venv_python

ORT_GPU = "onnxruntime-gpu==1.20.2"


def ort_venv(name: str, requirement: str, tmp: Path) -> Path:
    """A venv with ``requirement`` (a real wheel from the registry), built once in .cache."""

    def make(venv: Path) -> None:
        wheels = tmp / "wheels"
        pip_download(wheels, "--python-version", "3.11", "--platform", "manylinux_2_28_x86_64", requirement)
        make_venv(venv, packages=["--no-deps", *map(str, wheels.glob("*.whl")), "numpy==2.2.6"])

    return cached_venv(name, (requirement,), make)


def probe_json(venv: Path, cwd: Path) -> Dict[str, object]:
    done = run_dldoctor("probe", "--python", str(venv_python(venv)), "onnxruntime", "--format", "json", cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def ort_findings(report: Dict[str, object]) -> List[Dict[str, str]]:
    return [f for f in report["findings"] if "onnxruntime" in f["message"]]  # type: ignore[index,union-attr,misc]


@pytest.mark.machine
def test_cuda_provider_that_does_not_load_is_named_with_the_missing_library(tmp_path: Path) -> None:
    venv = ort_venv("ort-gpu", ORT_GPU, tmp_path)
    report = probe_json(venv, tmp_path)
    (cuda,) = [f for f in ort_findings(report) if "CUDAExecutionProvider" in f["message"]]
    assert cuda["slug"] == "missing-shared-library"
    assert "CUDAExecutionProvider did not load (libonnxruntime_providers_cuda.so: libcublasLt.so.12: cannot open" \
        in cuda["message"] and "silently use CPUExecutionProvider" in cuda["message"]
    assert cuda["severity"] == "warning"  # no NVIDIA driver here: falling back is expected, still said
    facts = {f["label"]: f["value"] for f in report["facts"]}  # type: ignore[index,union-attr]
    assert facts["onnxruntime CUDAExecutionProvider"] == "did not load: sessions fall back to CPUExecutionProvider"
    # check names the provider library's unresolved dependencies without importing anything
    static = check_json("--python", str(venv_python(venv)), cwd=tmp_path)
    missing = [f for f in static["findings"] if f["slug"] == "missing-shared-library"  # type: ignore[index]
               and not f.get("observed")]
    (plugin,) = [f for f in missing if "libonnxruntime_providers_cuda.so" in f["message"]]
    assert "cannot load: 14 libraries it needs are not found (libcublas.so.12, libcublasLt.so.12" in plugin["message"]
    assert plugin["severity"] == "warning"  # the import works; one line per provider, not one per library
    assert all(f["severity"] == "warning" for f in missing), [f["message"] for f in missing]


@pytest.mark.machine
def test_cpu_package_has_no_provider_findings(tmp_path: Path) -> None:
    venv = ort_venv("ort-cpu", "onnxruntime==1.20.1", tmp_path)
    report = probe_json(venv, tmp_path)
    assert ort_findings(report) == []
    facts = {f["label"]: f["value"] for f in report["facts"]}  # type: ignore[index,union-attr]
    assert facts["import onnxruntime"].startswith("ok")
    tried = {label: v for label, v in facts.items() if label.startswith("onnxruntime ")}
    assert all(v == "loaded in a session" for v in tried.values()), tried  # e.g. AzureExecutionProvider
    static = check_json("--python", str(venv_python(venv)), cwd=tmp_path)
    assert "missing-shared-library" not in [f["slug"] for f in static["findings"]]  # type: ignore[index]


def _report(*providers: OrtProvider, driver: bool = True) -> ProbeReport:
    return ProbeReport(python="/env/bin/python", platform="linux", ort=providers,
                       gpu=Gpu(driver, "560.94" if driver else None, source="fake driver"))


def test_loaded_provider_is_quiet() -> None:
    assert probe_findings(_report(OrtProvider("CUDAExecutionProvider", True, "1.20.2"))) == []


def test_provider_with_a_driver_that_falls_back_is_an_error_named_by_its_log() -> None:
    log = ("[E:onnxruntime:Default] Failed to load library libonnxruntime_providers_cuda.so with error: "
           "/env/lib/libcudnn_ops.so.9: undefined symbol: cublasLtGetVersion, version libcublasLt.so.12")
    (f,) = probe_findings(_report(OrtProvider("CUDAExecutionProvider", False, "1.20.2", log)))
    assert f.condition.slug == "symbol-mismatch" and f.severity is None and f.observed
    no_lib = probe_findings(_report(OrtProvider("CUDAExecutionProvider", False, "1.20.2", "no device"), driver=False))
    assert [x.condition.slug for x in no_lib] == ["gpu-build-without-gpu"]


def test_explain_recognises_onnxruntime_provider_logs() -> None:
    """The two lines onnxruntime-gpu 1.20.2 printed in the real run above."""
    from dldoctor.explainer import diagnose_text

    text = ("[E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_CUDA] Failed to load library "
            "libonnxruntime_providers_cuda.so with error: libcublasLt.so.12: cannot open shared object file: "
            "No such file or directory\n[W:onnxruntime:Default, onnxruntime_pybind_state.cc:993 "
            "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*.")
    assert next(c.slug for c in diagnose_text(text).shown) == "missing-shared-library"
    assert "missing-shared-library" in [c.slug for c in diagnose_text(text.splitlines()[1]).shown][:1]
