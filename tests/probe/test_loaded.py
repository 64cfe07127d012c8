"""Loaded-copy checks on real processes: two OpenMP runtimes, an old libstdc++ that won."""

from __future__ import annotations

import pytest

from dldoctor.model import Severity
from dldoctor.probe import probe_findings, run_probes
from dldoctor.probe.imports import describe_exit, library_key, load_key
from dldoctor.probe.loaded import glibcxx_from_name, openmp_runtimes, read_glibcxx_level, replaced_copies
from dldoctor.probe.model import ImportProbe, LoadedLibrary


@pytest.fixture(scope="module")
def loaded_report(probe_site):
    return run_probes(None, ["ext_omp1,ext_omp2", "ext_oldcxx,ext_cpp", "ext_cpp,ext_oldcxx",
                                 "ext_omp1,ext_omp3"],
                      timeout=30, env=probe_site.env, gpu=False)


def _by_slug(report, slug):
    return [f for f in probe_findings(report) if f.condition.slug == slug]


def test_two_openmp_runtimes_in_one_process(loaded_report, probe_site):
    assert loaded_report.imports[0].status == "ok"
    (f,) = _by_slug(loaded_report, "duplicate-openmp")
    assert f.observed
    assert f.message == "import ext_omp1,ext_omp2 loads 2 OpenMP runtimes into one process"
    values = " ".join(e.value for e in f.evidence)
    assert probe_site.lib("ext_omp2.libs/libiomp5.so") + " (pkg_omp2)" in values
    assert "libgomp.so.1" in values and "(system)" in values
    assert {e.label for e in f.evidence} >= {"GNU libgomp", "Intel libiomp5"}


def test_two_copies_of_one_openmp_runtime_are_quiet(loaded_report, probe_site):
    """System libgomp + a hash-named libgomp copy: both really load, the import works, and
    (as in check and wheels) one family twice is no duplicate-openmp."""
    probe = loaded_report.imports[3]
    assert probe.status == "ok"
    paths = {lib.path for lib in probe.loaded}
    assert probe_site.lib("ext_omp3.libs/libgomp-deadbeef.so.1") in paths
    assert any(p.endswith("/libgomp.so.1") or "/libgomp.so.1." in p for p in paths)
    assert [f for f in _by_slug(loaded_report, "duplicate-openmp") if "ext_omp3" in f.message] == []


def test_an_old_libstdcxx_loaded_first_breaks_a_modern_extension(loaded_report, probe_site):
    old_first, new_first = loaded_report.imports[1], loaded_report.imports[2]
    assert old_first.status == "error" and "not found" in old_first.message
    assert new_first.status == "ok"
    findings = _by_slug(loaded_report, "glibcxx-too-old")
    observed = [f for f in findings if f.message.startswith("an older libstdc++")]
    assert len(observed) == 1
    f = observed[0]
    assert "GLIBCXX_3.4.19" in f.message and f.level == Severity.ERROR
    ev = dict((e.label, e.value) for e in f.evidence)
    assert ev["loaded"] == probe_site.lib("ext_oldcxx.libs/libstdc++.so.6.0.19") + " (pkg_oldcxx)"
    # The failing import's own text names the condition too (signature from probe.toml).
    assert any(f.message.startswith("import ext_oldcxx,ext_cpp:") for f in findings)


def test_glibcxx_level_from_name_and_from_strings(probe_site, tmp_path):
    assert glibcxx_from_name("/usr/lib/libstdc++.so.6.0.30") == 30
    assert glibcxx_from_name("/x/libfoo.so") is None
    copy = tmp_path / "libstdc++.so.6"  # a vendored copy without the version in its name
    copy.write_bytes(b"\0GLIBCXX_3.4\0GLIBCXX_3.4.21\0GLIBCXX_3.4.9\0")
    assert read_glibcxx_level(str(copy)) == 21
    assert read_glibcxx_level(str(tmp_path / "missing.so")) is None


@pytest.mark.parametrize(("name", "runtime"), [
    ("/a/libgomp.so.1", "GNU libgomp"),
    ("/a/libgomp-a34b3233.so.1", "GNU libgomp"),
    ("C:\\x\\libiomp5md.dll", "Intel libiomp5"),
    ("/a/libiomp5.so", "Intel libiomp5"),
    ("/usr/lib/libomp.dylib", "LLVM libomp"),
    ("C:\\Windows\\System32\\VCOMP140.DLL", "MSVC vcomp"),
])
def test_openmp_runtime_names(name, runtime):
    assert openmp_runtimes([LoadedLibrary(name)]) == [(runtime, LoadedLibrary(name))]


def test_non_openmp_names_are_not_runtimes():
    assert openmp_runtimes([LoadedLibrary("/a/libgompish.so"), LoadedLibrary("/a/libc.so.6")]) == []


def test_library_key_drops_wheel_hashes_and_case():
    assert library_key("/t/lib/libgomp-a34b3233.so.1") == "libgomp.so.1"
    assert library_key("C:\\T\\MSVCP140.dll") == "msvcp140.dll"
    assert library_key("/x/libcudnn.so.9") == "libcudnn.so.9"
    assert library_key("/usr/lib/libgomp.so.1.0.0") == "libgomp.so.1"
    assert library_key("/usr/lib/libstdc++.so.6.0.30") == "libstdc++.so.6"


def test_only_a_copy_of_the_very_name_replaces_a_library():
    """The loader serves a request with a loaded library only under the name asked for: another
    hash of libpng16 (opencv's beside pillow's) is a second library, and pillow's own copy, not
    loaded yet, is one its AVIF/PNG plugin loads later (the fresh-eyes review's probe --orders)."""
    assert load_key("/s/pillow.libs/libpng16-abb096d5.so.16.43.0") == "libpng16-abb096d5.so.16"
    natives = {"pillow": ("/s/pillow.libs/libpng16-abb096d5.so.16.43.0",),
               "opencv-python": ("/s/opencv_python.libs/libpng16-529cb57a.so.16.58.0",),
               "torch": ("/s/torch/lib/libgomp.so.1",)}
    probe = ImportProbe(("cv2", "PIL.Image", "torch"), "ok", loaded=(
        LoadedLibrary("/s/opencv_python.libs/libpng16-529cb57a.so.16.58.0", "opencv-python"),
        LoadedLibrary("/s/PIL/_imaging.cpython-311-x86_64-linux-gnu.so", "pillow"),
        LoadedLibrary("/s/torch/lib/libtorch_cpu.so", "torch"),
        LoadedLibrary("/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0", None)))
    assert [(d, own) for d, own, _ in replaced_copies(probe, natives)] == [("torch", "/s/torch/lib/libgomp.so.1")]


@pytest.mark.parametrize(("rc", "platform", "text"), [
    (-6, "linux", "SIGABRT (signal 6)"),
    (-11, "macos", "SIGSEGV (signal 11)"),
    (3221225477, "windows", "0xC0000005 STATUS_ACCESS_VIOLATION"),
    (-1073741819, "windows", "0xC0000005 STATUS_ACCESS_VIOLATION"),  # signed view of the same
    (0xC0000409, "windows", "0xC0000409 STATUS_STACK_BUFFER_OVERRUN"),
    (0xC0001234, "windows", "0xC0001234 NTSTATUS"),
    (3, "windows", "exit 3"),
    (1, "linux", "exit 1"),
    (None, "linux", "no exit status"),
])
def test_describe_exit(rc, platform, text):
    assert describe_exit(rc, platform) == text
