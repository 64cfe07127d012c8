"""The probes on the real torch CPU wheel (a venv in .cache/venvs, built once)."""

from __future__ import annotations

import pytest

from dldoctor.probe import probe_findings, run_probes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def torch_report(torch_python):
    return run_probes(torch_python, ["torch"], timeout=120, spawn=True)


def test_torch_imports_and_lists_its_libraries_with_owners(torch_report):
    (probe,) = torch_report.imports
    assert probe.status == "ok", probe.summary()
    owned = {lib.name: lib.owner for lib in probe.loaded if not lib.baseline}
    for name in ("libtorch_cpu.so", "libc10.so", "libgomp.so.1", "libtorch_python.so"):
        assert owned.get(name) == "torch", name
    assert any(n.startswith("libstdc++.so.6") and o is None for n, o in owned.items())
    (facts,) = probe.facts
    assert facts.version is not None and facts.version.startswith("2.13.0")
    assert facts.cuda is None  # the CPU wheel


def test_cpu_torch_without_driver_has_no_gpu_findings(torch_report):
    assert not torch_report.gpu.driver_present
    assert torch_report.torch_cuda is None  # the GPU child runs only when a driver is present
    assert [f.condition.slug for f in probe_findings(torch_report)] == []


def test_spawn_pool_and_dataloader_run(torch_report):
    assert [(s.what, s.ok) for s in torch_report.spawn] == [("pool", True), ("dataloader", True)]


def test_gpu_child_on_cpu_torch_reports_no_cuda(torch_python):
    """The GPU child itself, run for real on the CPU wheel (as on a driverless host)."""
    from dldoctor.probe.api import _torch_cuda
    from dldoctor.probe.runner import child_env, run_child

    tc = _torch_cuda(run_child(torch_python, "gpu", {}, 120, child_env()))
    assert tc.error == "" and tc.cuda is None and tc.is_available is False
    assert tc.devices == () and tc.version.startswith("2.13.0")


def test_system_libgomp_loaded_first_replaces_torchs_own(torch_python, probe_site):
    """ext_omp1 pulls in the system libgomp.so.1; torch then reuses it (same SONAME)."""
    report = run_probes(torch_python, ["ext_omp1,torch"], timeout=120, env=probe_site.env,
                        gpu=False)
    (probe,) = report.imports
    assert probe.status == "ok"
    gomp = [lib for lib in probe.loaded if lib.name.startswith("libgomp")]
    assert len(gomp) == 1 and gomp[0].owner is None  # torch's copy never loaded
    msgs = [f.message for f in probe_findings(report) if f.condition.slug == "dll-version-conflict"]
    assert msgs == ["torch's own libgomp.so.1 lost to another copy at run time"]


def test_a_package_that_imports_torch_is_a_transitive_framework_import(torch_python, tmp_path):
    (tmp_path / "innocent.py").write_text("import torch\n\nVALUE = 1\n")
    (tmp_path / "innocent_broken.py").write_text(
        "import torch\nraise OSError('[WinError 1114] A DLL initialization routine failed')\n")
    report = run_probes(torch_python, ["innocent", "innocent_broken", "torch"], timeout=120,
                        env={"PYTHONPATH": str(tmp_path)}, gpu=False)
    assert [p.frameworks for p in report.imports] == [("torch",), ("torch",), ("torch",)]
    msgs = [f.message for f in probe_findings(report)
            if f.condition.slug == "transitive-framework-import"]
    assert msgs == ["importing innocent imports torch",
                    "importing innocent_broken imports torch, and failed: OSError: "
                    "[WinError 1114] A DLL initialization routine failed"]
