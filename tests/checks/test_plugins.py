"""Files loaded by their path on demand (plugins), packages that overwrite each other's module
folder, and a system library's own RUNPATH: the healthy Qt, OpenCV and PulseAudio environments
of the fresh-eyes review, rebuilt from real shared objects (gcc + patchelf) in real wheels, with
the real loader (ctypes, ldd) as the oracle."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable, List

import pytest

from dldoctor.model import Severity

from ..builders import evidence, findings
from ..conftest import site_packages, venv_python
from .conftest import EXT, build_wheel, gcc_shared, install_wheels, snapshot_of

pytestmark = pytest.mark.slow


def _load(venv: Path, *paths: Path) -> List[str]:
    """What each library's which() answers when loaded by its path in one process, or the
    loader's error for one that cannot load."""
    code = ("import ctypes,sys\nfor p in sys.argv[1:]:\n"
            "    try: print(ctypes.CDLL(p).which())\n    except OSError as e: print('ERR', e)")
    out = subprocess.run([str(venv_python(venv)), "-c", code, *map(str, paths)], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": ""}, timeout=120)
    return out.stdout.splitlines()


def test_a_plugin_that_cannot_load_costs_its_feature_not_the_import(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file without a SONAME that nothing links (Qt's libqxcb.so) is opened by its path when a
    feature asks for it: its missing libraries are one info for the package. A library with a
    SONAME in the same place is still judged as one that must load (an error)."""
    build = tmp_path / "build"
    plugin = gcc_shared(build / "libqfake.so", "int which(void) { return 1; }\n", needed=["libabsent-plugin.so.1"])
    other = gcc_shared(build / "libqother.so", "int which(void) { return 2; }\n", needed=["libabsent-plugin.so.1"])
    linked = gcc_shared(build / "libhelper.so.1", "int which(void) { return 3; }\n", soname="libhelper.so.1",
                        needed=["libabsent-helper.so.1"])
    init = build / "__init__.py"
    init.write_text("")
    install_wheels(venv := venv_factory(), build_wheel(tmp_path, "qtfake", {
        "qtfake/__init__.py": init, "qtfake/plugins/platforms/libqfake.so": plugin,
        "qtfake/plugins/sqldrivers/libqother.so": other, "qtfake/helpers/libhelper.so.1": linked}))
    site = site_packages(venv)
    # the oracle: the package imports, the plugin alone cannot load
    assert subprocess.run([str(venv_python(venv)), "-c", "import qtfake"], timeout=120).returncode == 0
    assert _load(venv, site / "qtfake/plugins/platforms/libqfake.so")[0].startswith("ERR")
    found = findings(snapshot_of(venv, monkeypatch), "missing-shared-library")
    (info,) = [f for f in found if f.level is Severity.INFO]
    assert info.message.startswith("2 plugins of qtfake cannot load here (libqfake.so, libqother.so): "
                                   "1 libraries they need are not found (libabsent-plugin.so.1)")
    assert evidence(info, "needed name") == ["libabsent-plugin.so.1"]
    (error,) = [f for f in found if f.level is Severity.ERROR]
    assert evidence(error, "needed name") == ["libabsent-helper.so.1"]
    # a system library, not CUDA's: the fix names the system package, not the nvidia-* wheels
    assert "apt-file search libabsent-helper.so.1" in error.fix and "nvidia" not in error.fix


def test_two_plugins_of_one_name_are_two_libraries(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyQt5 and opencv-python both ship a libqxcb.so (no SONAME): each is opened by its path, and
    the real loader keeps both (each answers with its own code), so nothing is a conflict."""
    venv = venv_factory()
    for dist, ident in (("qta", 1), ("qtb", 22)):
        lib = gcc_shared(tmp_path / f"build-{dist}" / "libqxcb.so", f"int which(void) {{ return {ident}; }}\n")
        install_wheels(venv, build_wheel(tmp_path, dist, {f"{dist}/plugins/platforms/libqxcb.so": lib}))
    site = site_packages(venv)
    assert _load(venv, site / "qta/plugins/platforms/libqxcb.so", site / "qtb/plugins/platforms/libqxcb.so") == [
        "1", "22"]
    assert findings(snapshot_of(venv, monkeypatch), "dll-version-conflict") == []


def test_two_packages_owning_one_module_folder_are_a_duplicate_not_a_corruption(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """opencv-python and opencv-contrib-python both install cv2/: the second overwrites the first's
    files, whose RECORD then disagrees with the disk. Reinstalling the first would only overwrite
    the second in turn: keeping one is the fix (duplicate-install), not a forced reinstall."""
    venv = venv_factory()
    for dist, ident, extra in (("cvbase", 1, ""), ("cvcontrib", 22, "static char more[8192] = {1};\n"
                                                                     "int contrib(void) { return more[0]; }\n")):
        mod = gcc_shared(tmp_path / f"build-{dist}" / f"cvx{EXT}",
                         f"{extra}int which(void) {{ return {ident}; }}\n")
        install_wheels(venv, build_wheel(tmp_path, dist, {f"cvx/cvx{EXT}": mod}))
    assert _load(venv, site_packages(venv) / "cvx" / f"cvx{EXT}") == ["22"]  # the last one installed won
    snap = snapshot_of(venv, monkeypatch)
    assert findings(snap, "corrupt-install") == []
    (dup,) = findings(snap, "duplicate-install")
    assert dup.message.startswith("cvbase and cvcontrib both install the module cvx: the one installed last "
                                  "overwrote the other's files")
    assert "uninstall -y cvbase cvcontrib" in dup.fix


def test_a_truly_damaged_file_beside_another_package_is_still_corrupt(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two packages in one namespace folder (nvidia-cudnn and nvidia-cublas both own nvidia/) do not
    own each other's files: a damaged file there is corruption."""
    venv = venv_factory()
    for dist in ("nsa", "nsb"):
        lib = gcc_shared(tmp_path / f"build-{dist}" / f"lib{dist}.so.1", "int f(void) { return 1; }\n",
                         soname=f"lib{dist}.so.1")
        install_wheels(venv, build_wheel(tmp_path, dist, {f"nsx/{dist}/lib/lib{dist}.so.1": lib}))
    damaged = site_packages(venv) / "nsx/nsa/lib/libnsa.so.1"
    damaged.write_bytes(damaged.read_bytes()[:100])
    snap = snapshot_of(venv, monkeypatch)
    assert findings(snap, "duplicate-install") == []
    (bad,) = findings(snap, "corrupt-install")
    assert bad.message.startswith("nsa 1.0: 1 of wrong size")


def test_a_system_librarys_own_runpath_is_searched(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """libpulse.so.0 finds libpulsecommon in its own RUNPATH (/usr/lib/.../pulseaudio), a folder
    no library of the environment names: the snapshot must look there too (ldd does)."""
    system = tmp_path / "system"
    inner = gcc_shared(system / "private" / "libinner.so.1", "int inner(void) { return 5; }\n",
                       soname="libinner.so.1")
    outer = gcc_shared(system / "libouter.so.1", "int inner(void);\nint outer(void) { return inner(); }\n",
                       soname="libouter.so.1", flags=[str(inner)])
    subprocess.run(["patchelf", "--set-rpath", str(system / "private"), str(outer)], check=True)  # DT_RUNPATH
    mod = gcc_shared(tmp_path / "build" / f"_uses{EXT}", "int outer(void);\nint which(void) { return outer(); }\n",
                     flags=[str(outer)], rpath=str(system))
    install_wheels(venv := venv_factory(), build_wheel(tmp_path, "usesouter", {f"usesouter/_uses{EXT}": mod}))
    ext = site_packages(venv) / "usesouter" / f"_uses{EXT}"
    ldd = subprocess.run(["ldd", str(ext)], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}).stdout
    assert f"libinner.so.1 => {system / 'private' / 'libinner.so.1'}" in ldd  # the oracle resolves it
    assert _load(venv, ext) == ["5"]
    assert findings(snapshot_of(venv, monkeypatch), "missing-shared-library") == []
