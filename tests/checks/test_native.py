"""The environment-wide native checks, each triggered by a real broken install and quiet on
the clean torch + numpy + scipy venv. Real loaders (python importing, ldd) confirm the
predictions where the machine can show them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Tuple

import pytest

from dldoctor.checks._native_graph import env_graphs
from dldoctor.model import Severity

from ..builders import evidence, findings
from ..conftest import pip_install, site_packages, venv_python
from .conftest import (
    EXT,
    NATIVE,
    build_wheel,
    cached_wheel,
    copy_packages,
    gcc_shared,
    install_wheels,
    snapshot_of,
)

pytestmark = pytest.mark.slow
SYSTEM_GOMP = Path("/usr/lib/x86_64-linux-gnu/libgomp.so.1")


def run_py(venv: Path, code: str, **env: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run([str(venv_python(venv)), "-c", code], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "", **env}, timeout=300)


# --- the clean environment ------------------------------------------------------------


def test_clean_torch_venv_is_quiet_and_judges_libgfortran_in_context(
        torch_venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = snapshot_of(torch_venv, monkeypatch)
    for slug in NATIVE:
        assert findings(snap, slug) == [], slug
    graphs = env_graphs(snap)
    assert graphs is not None and len(graphs.graphs) >= 100
    # scipy.libs' libgfortran has no RPATH: ldd on the file alone says libquadmath is missing ...
    libs = site_packages(torch_venv) / "scipy.libs"
    gfortran = next(libs.glob("libgfortran-8f1e9814*"))
    quadmath = next(libs.glob("libquadmath-828275a7*"))
    ldd = subprocess.run(["ldd", str(gfortran)], capture_output=True, text=True).stdout
    assert f"{quadmath.name} => not found" in ldd
    # ... but loaded by a scipy extension it finds it through the inherited DT_RPATH.
    inherited = {(e.requester, e.resolution.path) for g in graphs.graphs for e in g.edges
                 if e.resolution.rule == "rpath-inherited"}
    assert (str(gfortran), str(quadmath)) in inherited
    # numpy.libs and scipy.libs ship the same libgfortran-040039e1 SONAME: identical bytes, no conflict.
    same = [x for x in snap.libraries if x.info and x.info["soname"] == "libgfortran-040039e1-0352e75f.so.5.0.0"]
    assert {x.dist for x in same} == {"numpy", "scipy"}


# --- missing-shared-library -----------------------------------------------------------


def test_deleted_libquadmath_is_missing_for_numpy_gfortran(
        torch_venv: Path, venv_factory: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    site = copy_packages(torch_venv, venv, "numpy", "numpy.libs", "numpy-*.dist-info")
    assert findings(snapshot_of(venv, monkeypatch), "missing-shared-library") == []
    quadmath = next((site / "numpy.libs").glob("libquadmath-*"))
    quadmath.unlink()
    found = findings(snapshot_of(venv, monkeypatch), "missing-shared-library")
    assert len(found) == 1, [f.message for f in found]
    f = found[0]
    assert evidence(f, "needed name") == [quadmath.name]
    assert evidence(f, "needed by")[0].endswith(".so.5.0.0") and "libgfortran" in evidence(f, "needed by")[0]
    assert str(site / "numpy.libs") in evidence(f, "tried")
    assert any("_multiarray_umath" in r for r in evidence(f, "loaded by"))
    # The real loader agrees.
    done = run_py(venv, "import numpy")
    assert done.returncode != 0 and f"{quadmath.name}: cannot open shared object file" in done.stderr


def test_extension_module_with_missing_dependency(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ext = gcc_shared(tmp_path / "build" / f"_fixt{EXT}", "int fixt(void) { return 1; }\n",
                     needed=["libabsent.so.1"], rpath="$ORIGIN/../fixt.libs")
    venv = venv_factory()
    install_wheels(venv, build_wheel(tmp_path, "fixt", {f"fixt/_fixt{EXT}": ext}))
    found = findings(snapshot_of(venv, monkeypatch), "missing-shared-library")
    assert [evidence(f, "needed name") for f in found] == [["libabsent.so.1"]]
    assert str(site_packages(venv) / "fixt.libs") in evidence(found[0], "tried")
    assert "/usr/lib/x86_64-linux-gnu" in evidence(found[0], "tried")
    # Shipping the library where the RPATH points resolves it.
    helper = gcc_shared(tmp_path / "build2" / "libabsent.so.1", "int h(void) { return 2; }\n",
                        soname="libabsent.so.1")
    install_wheels(venv, build_wheel(tmp_path, "fixtlibs", {"fixt.libs/libabsent.so.1": helper}))
    assert findings(snapshot_of(venv, monkeypatch), "missing-shared-library") == []


# --- dll-version-conflict -------------------------------------------------------------


def _which_after_loading(venv: Path, first: Path, second: Path) -> List[str]:
    """What each module's which() answers once the real loader has loaded both, in this order."""
    code = ("import ctypes,sys; a=ctypes.CDLL(sys.argv[1]); b=ctypes.CDLL(sys.argv[2]); "
            "print(a.which(), b.which())")
    out = subprocess.run([str(venv_python(venv)), "-c", code, str(first), str(second)], capture_output=True, text=True)
    return out.stdout.split()


def _shared_pair(tmp_path: Path, a_id: int, b_id: int) -> Path:
    """Two real wheels, each bundling its own libshared.so.1 and a module that uses it."""
    venv_wheels = tmp_path / "wheels"
    venv_wheels.mkdir(exist_ok=True)
    for dist, ident in (("pkga", a_id), ("pkgb", b_id)):
        build = tmp_path / f"build-{dist}"
        lib = gcc_shared(build / "libshared.so.1", f"int shared_id(void) {{ return {ident}; }}\n",
                         soname="libshared.so.1")
        mod = gcc_shared(build / f"_{dist}{EXT}", "int shared_id(void);\nint which(void) { return shared_id(); }\n",
                         flags=[str(lib)], rpath=f"$ORIGIN/../{dist}.libs")
        build_wheel(venv_wheels, dist, {f"{dist}/_{dist}{EXT}": mod, f"{dist}.libs/libshared.so.1": lib})
    return venv_wheels


def test_same_soname_different_content_in_two_wheels(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    install_wheels(venv, *sorted(_shared_pair(tmp_path, 1, 22).glob("*.whl")))
    found = findings(snapshot_of(venv, monkeypatch), "dll-version-conflict")
    assert len(found) == 1
    assert "libshared.so.1" in found[0].message and "pkga" in found[0].message and "pkgb" in found[0].message
    assert len(evidence(found[0], "copy of pkga")) == 1 and len(evidence(found[0], "copy of pkgb")) == 1
    # The real loader: whichever module loads first, its libshared serves the other one too.
    site = site_packages(venv)
    a, b = site / "pkga" / f"_pkga{EXT}", site / "pkgb" / f"_pkgb{EXT}"
    assert _which_after_loading(venv, a, b) == ["1", "1"]
    assert _which_after_loading(venv, b, a) == ["22", "22"]


def test_same_soname_same_content_is_no_conflict(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    install_wheels(venv, *sorted(_shared_pair(tmp_path, 7, 7).glob("*.whl")))
    assert findings(snapshot_of(venv, monkeypatch), "dll-version-conflict") == []


def test_same_named_extension_modules_in_two_packages_are_no_conflict(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib/_qhull and scipy/spatial/_qhull: Python imports each by its path, and the real
    loader keeps both (each answers with its own code), so nothing is judged a conflict."""
    venv = venv_factory()
    for dist, ident in (("pkga", 1), ("pkgb", 22)):
        mod = gcc_shared(tmp_path / f"build-{dist}" / f"_same{EXT}", f"int which(void) {{ return {ident}; }}\n")
        install_wheels(venv, build_wheel(tmp_path, dist, {f"{dist}/_same{EXT}": mod}))
    site = site_packages(venv)
    assert _which_after_loading(venv, site / "pkga" / f"_same{EXT}", site / "pkgb" / f"_same{EXT}") == ["1", "22"]
    assert findings(snapshot_of(venv, monkeypatch), "dll-version-conflict") == []


# --- duplicate-openmp -----------------------------------------------------------------


def test_sklearn_libgomp_and_intel_libiomp5(
        venv_factory: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    sklearn = cached_wheel("scikit_learn", "scikit-learn==1.9.1")
    venv = venv_factory()
    install_wheels(venv, sklearn)
    assert findings(snapshot_of(venv, monkeypatch), "duplicate-openmp") == []  # one runtime alone
    install_wheels(venv, cached_wheel("intel_openmp", "intel-openmp==2026.2.0"))
    found = findings(snapshot_of(venv, monkeypatch), "duplicate-openmp")
    assert len(found) == 1
    labels = {e.label: e.value for e in found[0].evidence}
    assert labels["GNU libgomp (scikit-learn)"].endswith(".so.1.0.0")
    assert labels["Intel libiomp5 (intel-openmp)"].endswith("/lib/libiomp5.so")
    # libiomp5 beside libgomp is no known clash (paddlepaddle ships them so): info, not a warning
    assert found[0].level == Severity.INFO and "not known to clash" in found[0].message


def test_torch_and_sklearn_each_with_its_own_libgomp_are_quiet(
        torch_venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """torch/lib/libgomp.so.1 and scikit-learn's auditwheel copy libgomp-<hash>.so.1.0.0 are two
    copies of one runtime under different names; the import (the oracle) maps both and works."""
    target = tmp_path / "extra"
    pip_install(venv_python(torch_venv), "--no-deps", str(cached_wheel("scikit_learn", "scikit-learn==1.9.1")),
                "joblib", "threadpoolctl", "cloudpickle", "narwhals", target=target)
    monkeypatch.setenv("PYTHONPATH", str(target))
    code = ("import torch, sklearn.cluster; torch.ones(4).sum(); "
            "print(sorted({l.split()[-1] for l in open('/proc/self/maps') if 'libgomp' in l}))")
    done = subprocess.run([str(venv_python(torch_venv)), "-c", code], capture_output=True, text=True, check=True)
    assert len(eval(done.stdout)) == 2, done.stdout  # both copies loaded, side by side, no abort
    assert findings(snapshot_of(torch_venv, monkeypatch), "duplicate-openmp") == []


# --- wrong-architecture ---------------------------------------------------------------


def test_i686_wheel_installed_for_a_64_bit_python(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    site = site_packages(venv)
    wheel = cached_wheel("MarkupSafe-3.0.2-cp311-cp311-manylinux_2_5_i686", "markupsafe==3.0.2", "--platform",
                         "manylinux2014_i686", "--python-version", "3.11")
    pip_install(venv_python(venv), "--no-deps", "--no-index", "--only-binary=:all:", "--platform",
                "manylinux2014_i686", str(wheel), target=site)
    found = findings(snapshot_of(venv, monkeypatch), "wrong-architecture")
    assert len(found) == 1 and evidence(found[0], "built for") == ["x86 32-bit elf"]
    # Under the name this Python imports, the real loader refuses it for the same reason.
    module = Path(evidence(found[0], "module")[0])
    shutil.copy(module, site / "markupsafe" / f"_speedups{EXT}")
    done = run_py(venv, "import markupsafe._speedups")
    assert "wrong ELF class: ELFCLASS32" in done.stderr


# --- ld-library-path-override and path-pollution ---------------------------------------


def test_ld_library_path_copy_of_libgomp_wins_over_torchs(
        torch_venv: Path, venv_factory: Callable[..., Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    other = venv_factory()  # another environment's lib folder on LD_LIBRARY_PATH
    folder = other / "lib" / "omp"
    folder.mkdir(parents=True)
    shutil.copy(SYSTEM_GOMP, folder / "libgomp.so.1")
    snap = snapshot_of(torch_venv, monkeypatch, str(folder))
    found = findings(snap, "ld-library-path-override")
    torch_gomp = str(site_packages(torch_venv) / "torch" / "lib" / "libgomp.so.1")
    assert [(evidence(f, "wins"), evidence(f, "shadowed")) for f in found] == \
        [([str(folder / "libgomp.so.1")], [torch_gomp])]
    assert found[0].severity is None  # the condition's own severity: a different file wins
    pollution = findings(snap, "path-pollution")
    assert len(pollution) == 1 and evidence(pollution[0], "really shadows") == [f"libgomp.so.1 of torch ({torch_gomp})"]
    # The real loader maps the LD_LIBRARY_PATH copy.
    maps = run_py(torch_venv, "import torch; print(open('/proc/self/maps').read())",
                  LD_LIBRARY_PATH=str(folder)).stdout
    assert str(folder / "libgomp.so.1") in maps and torch_gomp not in maps


def test_identical_copy_is_info_and_unrelated_folder_is_quiet(
        torch_venv: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    same = tmp_path / "same"
    same.mkdir()
    shutil.copy(site_packages(torch_venv) / "torch" / "lib" / "libgomp.so.1", same / "libgomp.so.1")
    found = findings(snapshot_of(torch_venv, monkeypatch, str(same)), "ld-library-path-override")
    assert len(found) == 1 and found[0].severity is not None and found[0].severity.label == "info"
    unrelated = tmp_path / "unrelated"
    unrelated.mkdir()
    shutil.copy("/usr/lib/x86_64-linux-gnu/libz.so.1", unrelated / "libz.so.1")  # wins over the cache only
    snap = snapshot_of(torch_venv, monkeypatch, f"{unrelated}:{tmp_path / 'absent'}")
    assert findings(snap, "ld-library-path-override") == []
    assert findings(snap, "missing-shared-library") == []


# --- corrupt-install: libraries that cannot be loaded ---------------------------------


def _numpy_copy(torch_venv: Path, venv_factory: Callable[..., Path]) -> Tuple[Path, Path]:
    venv = venv_factory()
    return venv, copy_packages(torch_venv, venv, "numpy", "numpy.libs", "numpy-*.dist-info")


def _unloadable(snap: object) -> List[str]:
    return [f.message for f in findings(snap, "corrupt-install") if "RECORD" not in f.message]  # type: ignore[arg-type]


def test_truncated_bundled_library_is_unreadable_not_missing(
        torch_venv: Path, venv_factory: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A half-copied libquadmath in numpy.libs: ld.so finds it and dies there; it is not
    "missing" (the old graph dropped unreadable files) nor "wrong-architecture"."""
    venv, site = _numpy_copy(torch_venv, venv_factory)
    assert _unloadable(snapshot_of(venv, monkeypatch)) == []
    quadmath = next((site / "numpy.libs").glob("libquadmath-*"))
    quadmath.write_bytes(quadmath.read_bytes()[: quadmath.stat().st_size // 2])
    assert run_py(venv, "import numpy").returncode != 0  # the real loader agrees: numpy is broken
    snap = snapshot_of(venv, monkeypatch)
    found = [f for f in findings(snap, "corrupt-install") if "RECORD" not in f.message]
    assert len(found) == 1, [f.message for f in found]
    f = found[0]
    assert f"needs {quadmath.name}; ld.so finds {quadmath} (numpy) first and cannot load it" in f.message
    assert evidence(f, "unreadable file") == [str(quadmath)] and "truncated" in evidence(f, "error")[0]
    assert "libgfortran" in evidence(f, "needed by")[0]
    assert f.fix.startswith(f"{venv_python(venv)} -m pip install --force-reinstall --no-deps --no-cache-dir numpy==")
    assert findings(snap, "missing-shared-library") == findings(snap, "wrong-architecture") == []


def test_unloadable_extension_modules(
        torch_venv: Path, venv_factory: Callable[..., Path], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """An extension cut to 3 KB, and one replaced by a header claiming 4 GB of program
    headers in a sparse file (check allocated 8.4 GB reading it): both are reported, and
    the whole check stays small (peak RSS of the CLI and its children, from the kernel)."""
    venv, site = _numpy_copy(torch_venv, venv_factory)
    umath = next((site / "numpy" / "_core").glob("_multiarray_umath*.so"))
    umath.write_bytes(umath.read_bytes()[:3000])
    other = next((site / "numpy" / "random").glob("_generator*.so"))
    head = bytearray(other.read_bytes()[:64])
    head[54:58] = (65535).to_bytes(2, "little") + (65534).to_bytes(2, "little")  # e_phentsize, e_phnum
    with open(other, "wb") as fh:
        fh.write(bytes(head))
        fh.truncate(65535 * 65534 + 4096)
    assert run_py(venv, "import numpy").returncode != 0
    messages = sorted(_unloadable(snapshot_of(venv, monkeypatch)))
    assert len(messages) == 2, messages
    assert messages[0] == (f"{other.name} (numpy) is not a loadable module: ELF program header size 65535 "
                           "is not 56 (ld.so refuses the file)")
    assert messages[1].startswith(f"{umath.name} (numpy) is not a loadable module: PT_LOAD segment")
    assert messages[1].endswith("lies outside the file (0xbb8 bytes): truncated or corrupt")
    measure = ("import resource, subprocess, sys; "
               "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
               "print(done.stdout)")
    out = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "dldoctor", "check", "--format",
                          "json", "--no-probe", "--python", str(venv_python(venv))],
                         capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    status, rss_kb = map(int, out.split("\n", 1)[0].split())
    report = json.loads(out.split("\n", 1)[1])
    assert status == 1 and rss_kb < 300 * 1024, (status, rss_kb)
    assert sum(f["slug"] == "corrupt-install" and "not a loadable module" in f["message"]
               for f in report["findings"]) == 2
