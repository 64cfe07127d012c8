"""Import probes against real compiled extension modules in a real child interpreter."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from dldoctor.errors import DldoctorError
from dldoctor.probe import run_probes
from dldoctor.probe.model import BROKEN, CRASH, ERROR, OK, TIMEOUT
from dldoctor.probe.runner import STDERR_HEAD, STDERR_TAIL, child_env

from ..conftest import PYTHONS, find_python


def test_success_lists_loaded_libraries_with_owners(probe_site):
    report = run_probes(None, ["ext_a"], timeout=30, env=probe_site.env, gpu=False)
    (probe,) = report.imports
    assert probe.status == OK, probe
    owners = {lib.path: lib.owner for lib in probe.loaded}
    assert owners[probe_site.lib("ext_a.libs/libconflict.so.1")] == "pkg_a"
    ext = [p for p in owners if Path(p).name.startswith("ext_a.")]
    assert len(ext) == 1 and owners[ext[0]] == "pkg_a"
    # The interpreter's own libc is loaded before any import: baseline, owned by nobody.
    libc = [lib for lib in probe.loaded if lib.name.startswith("libc.so")]
    assert libc and libc[0].baseline and libc[0].owner is None
    assert report.platform == "linux"
    assert [f.name for f in probe.facts] == ["ext_a"]


def test_exception_is_a_result_with_type_message_and_traceback(probe_site):
    report = run_probes(None, ["no_such_module_xyz"], timeout=30, env=probe_site.env, gpu=False)
    (probe,) = report.imports
    assert probe.status == ERROR
    assert probe.exc_type == "builtins.ModuleNotFoundError"
    assert "no_such_module_xyz" in probe.message
    assert "Traceback" in probe.traceback
    assert probe.failed_module == "no_such_module_xyz"


def test_abort_in_an_extension_is_a_crash_with_the_signal(probe_site):
    report = run_probes(None, ["ext_abort"], timeout=30, env=probe_site.env, gpu=False)
    (probe,) = report.imports
    assert probe.status == CRASH
    assert probe.exit == "SIGABRT (signal 6)"
    assert probe.failed_module == "ext_abort"
    # PYTHONFAULTHANDLER in the child: the crash leaves its Python stack on stderr.
    assert "Fatal Python error" in probe.stderr_tail


def test_hang_is_killed_with_its_whole_process_group(probe_site, tmp_path):
    pidfile = tmp_path / "helper.pid"
    env = {**probe_site.env, "DLDOCTOR_TEST_PIDFILE": str(pidfile)}
    report = run_probes(None, ["hang_with_child", "hang_forever"], timeout=3, env=env, gpu=False)
    assert [p.status for p in report.imports] == [TIMEOUT, TIMEOUT]
    assert report.imports[1].failed_module == "hang_forever"
    # faulthandler dumped where the import was stuck before the kill.
    assert "hang_forever" in report.imports[1].stderr_tail
    helper = int(pidfile.read_text())
    for _ in range(50):  # the kernel reaps the killed helper asynchronously
        if not Path(f"/proc/{helper}").exists() or "Z" in _state(helper):
            break
        time.sleep(0.1)
    assert not Path(f"/proc/{helper}").exists() or "Z" in _state(helper)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return "gone"


def test_sequence_reports_the_failing_module_and_what_loaded(probe_site):
    report = run_probes(None, ["ext_a,ext_b"], timeout=30, env=probe_site.env, gpu=False)
    (probe,) = report.imports
    assert probe.modules == ("ext_a", "ext_b")
    assert probe.status == ERROR and probe.failed_module == "ext_b"
    assert "undefined symbol: f_v2" in probe.message
    assert probe_site.lib("ext_a.libs/libconflict.so.1") in [lib.path for lib in probe.loaded]


def test_output_noise_does_not_confuse_the_probe(probe_site):
    report = run_probes(None, ["noisy"], timeout=30, env=probe_site.env, gpu=False)
    assert report.imports[0].status == OK
    kept = report.imports[0].stderr_tail  # a head and a tail; the middle is only counted
    assert len(kept) <= STDERR_HEAD + STDERR_TAIL + 100 and "bytes skipped ..." in kept


def test_environment_is_clean_apart_from_what_is_tested(probe_site, tmp_path, monkeypatch):
    monkeypatch.setenv("DLDOCTOR_SECRET_TOKEN", "hunter2")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/example/lib")
    (tmp_path / "envdump.py").write_text(
        "import os, json\n"
        "open(os.environ['DUMP'], 'w').write(json.dumps(dict(os.environ)))\n")
    dump = tmp_path / "env.json"
    env = {"PYTHONPATH": str(tmp_path), "DUMP": str(dump)}
    report = run_probes(None, ["envdump"], timeout=30, env=env, gpu=False)
    assert report.imports[0].status == OK
    import json

    seen = json.loads(dump.read_text())
    assert "DLDOCTOR_SECRET_TOKEN" not in seen
    assert seen["LD_LIBRARY_PATH"] == "/opt/example/lib"  # it changes what loads: kept
    assert seen["PYTHONDONTWRITEBYTECODE"] == "1"
    assert "PYTHONSTARTUP" not in child_env(base={"PYTHONSTARTUP": "x.py", "PATH": "/bin"})


def test_stdin_is_closed(probe_site, tmp_path):
    (tmp_path / "reads_stdin.py").write_text("import sys\nassert sys.stdin.read() == ''\n")
    report = run_probes(None, ["reads_stdin"], timeout=10, env={"PYTHONPATH": str(tmp_path)},
                        gpu=False)
    assert report.imports[0].status == OK


def test_not_a_python_is_a_broken_probe_not_an_exception(tmp_path):
    report = run_probes("/bin/false", ["json"], timeout=10, gpu=False)
    assert report.imports[0].status == BROKEN


def test_missing_interpreter_is_bad_usage(tmp_path):
    with pytest.raises(DldoctorError, match="no Python interpreter"):
        run_probes(str(tmp_path / "nope" / "python"), ["json"])


def test_never_imports_the_module_in_dldoctor_itself(probe_site):
    before = set(sys.modules)
    run_probes(None, ["ext_a", "ext_omp1"], timeout=30, env=probe_site.env, gpu=False)
    assert "ext_a" not in sys.modules and "ext_omp1" not in sys.modules
    assert not {m for m in set(sys.modules) - before if m.split(".")[0] in {"torch", "ext_a"}}


def test_child_script_runs_on_the_oldest_supported_python(tmp_path):
    """The child is passed with -c to any target: it must at least compile as 3.8 code."""
    import ast

    src = (Path(__file__).parents[2] / "src/dldoctor/probe/child.py").read_text()
    ast.parse(src, feature_version=(3, 8))
    assert "dldoctor" not in [n.split(".")[0] for n in _imports(src)]


def _imports(src: str):
    import ast

    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_no_findings_path_runs_without_modules_installed(tmp_path):
    """No framework installed in the target: discovery finds none, nothing is imported."""
    report = run_probes(None, [], orders=True, timeout=30,
                        env={"PYTHONPATH": os.fspath(tmp_path)}, gpu=False)
    assert report.imports == () and report.pairs == ()  # the test venv has no framework
    assert report.errors == ()


@pytest.mark.machine
@pytest.mark.parametrize("version", PYTHONS)
def test_child_works_in_every_supported_python(version):
    """The stdlib-only child, run for real by Python 3.8 ... 3.13 (pyenv)."""
    report = run_probes(find_python(version), ["json", "no_such_module_xyz"], timeout=60,
                        gpu=False)
    ok, missing = report.imports
    assert ok.status == OK, ok.summary() + ok.stderr_tail
    assert any(lib.name.startswith("libc.so") for lib in ok.loaded)
    assert missing.status == ERROR and missing.exc_type == "builtins.ModuleNotFoundError"


def test_framework_that_failed_inside_a_package_import_is_named_from_the_traceback(tmp_path):
    """A stand-in "torch" package that fails as the real one does on a broken DLL."""
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(
        "raise OSError('[WinError 1114] A dynamic link library (DLL) initialization routine "
        "failed. Error loading \"c10.dll\" or one of its dependencies.')\n")
    (tmp_path / "noisy_audio.py").write_text("import torch\n")
    report = run_probes(None, ["noisy_audio"], timeout=30, env={"PYTHONPATH": str(tmp_path)},
                        gpu=False)
    (probe,) = report.imports
    assert probe.status == ERROR and probe.frameworks == ("torch",)
    from dldoctor.probe import probe_findings

    slugs = [f.condition.slug for f in probe_findings(report)]
    # The failure itself stays an error finding: WinError 1114 alone names no single cause.
    assert slugs == ["transitive-framework-import", "import-failed"]


def test_failed_probe_is_diagnosed_with_the_explain_signatures(tmp_path):
    """A real ld.so failure (dlopen of a missing library) gets its cause, not just "failed"."""
    (tmp_path / "needs_cudnn.py").write_text("import ctypes\nctypes.CDLL('libcudnn_dldoctor_missing.so.9')\n")
    report = run_probes(None, ["needs_cudnn"], timeout=30, env={"PYTHONPATH": str(tmp_path)}, gpu=False)
    from dldoctor.probe import probe_findings

    (finding,) = probe_findings(report)
    assert finding.condition.slug == "missing-shared-library" and finding.observed
    assert "libcudnn_dldoctor_missing.so.9" in finding.message
