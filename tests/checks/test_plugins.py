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
    """A lib*.so without a SONAME that nothing links (Qt's plugins) is opened by its path when a
    feature asks for it: its missing libraries are one info for the package, and one warning for
    the plugins it cannot work without (Qt's platforms/: every window). A library with a SONAME,
    and an extension module without an ABI tag (TensorFlow's _pywrap_*.so), are still judged as
    files that must load (errors)."""
    build = tmp_path / "build"
    platform = gcc_shared(build / "libqfake.so", "int which(void) { return 1; }\n", needed=["libabsent-xcb.so.1"])
    sql = gcc_shared(build / "libqsqlfake.so", "int which(void) { return 2; }\n", needed=["libabsent-sql.so.1"])
    tts = gcc_shared(build / "libqttsfake.so", "int which(void) { return 4; }\n", needed=["libabsent-sql.so.1"])
    linked = gcc_shared(build / "libhelper.so.1", "int which(void) { return 3; }\n", soname="libhelper.so.1",
                        needed=["libabsent-helper.so.1"])
    pywrap = gcc_shared(build / "_pywrap_fake.so", "int which(void) { return 5; }\n", needed=["libabsent-core.so.2"])
    init = build / "__init__.py"
    init.write_text("")
    install_wheels(venv := venv_factory(), build_wheel(tmp_path, "qtfake", {
        "qtfake/__init__.py": init, "qtfake/plugins/platforms/libqfake.so": platform,
        "qtfake/plugins/sqldrivers/libqsqlfake.so": sql, "qtfake/plugins/texttospeech/libqttsfake.so": tts,
        "qtfake/helpers/libhelper.so.1": linked, "qtfake/python/_pywrap_fake.so": pywrap}))
    site = site_packages(venv)
    # the oracle: the package imports, the plugin alone cannot load
    assert subprocess.run([str(venv_python(venv)), "-c", "import qtfake"], timeout=120).returncode == 0
    assert _load(venv, site / "qtfake/plugins/platforms/libqfake.so")[0].startswith("ERR")
    found = findings(snapshot_of(venv, monkeypatch), "missing-shared-library")
    (info,) = [f for f in found if f.level is Severity.INFO]
    assert info.message.startswith("2 plugins of qtfake cannot load here (libqsqlfake.so, libqttsfake.so): "
                                   "1 library they need is not found (libabsent-sql.so.1)")
    (warning,) = [f for f in found if f.level is Severity.WARNING]
    assert warning.message.startswith("1 plugin of qtfake cannot load here (libqfake.so): 1 library they need is "
                                      "not found (libabsent-xcb.so.1). The import works, but")
    errors = sorted(evidence(f, "needed name")[0] for f in found if f.level is Severity.ERROR)
    assert errors == ["libabsent-core.so.2", "libabsent-helper.so.1"]
    # a system library, not CUDA's and no package's: the fix names the system package
    (helper,) = [f for f in found if evidence(f, "needed name") == ["libabsent-helper.so.1"]]
    assert "apt-file search libabsent-helper.so.1" in helper.fix and "nvidia" not in helper.fix


def test_a_library_a_package_ships_is_no_system_package(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A framework's own library that its extension cannot find (libtensorflow_cc.so.2 removed
    from where the RPATH points, here shipped in another folder) is no apt package: the fix is
    the condition's own (reinstall the framework, or the wheel that ships it)."""
    build = tmp_path / "build"
    own = gcc_shared(build / "libfwcore.so.2", "int core(void) { return 1; }\n", soname="libfwcore.so.2")
    ext = gcc_shared(build / f"_fw{EXT}", "int which(void) { return 1; }\n", needed=["libfwcore.so.2"],
                     rpath="$ORIGIN/missing-folder")
    install_wheels(venv := venv_factory(), build_wheel(tmp_path, "fwfake", {
        f"fwfake/_fw{EXT}": ext, "fwfake/other/lib/libfwcore.so.2": own}))
    (miss,) = findings(snapshot_of(venv, monkeypatch), "missing-shared-library")
    assert evidence(miss, "needed name") == ["libfwcore.so.2"]
    assert "apt-file" not in miss.fix and "reinstall the framework" in miss.fix


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


def test_a_rewritten_module_does_not_hide_a_damaged_file_of_its_own(
        venv_factory: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = venv_factory()
    data = gcc_shared(tmp_path / "build-data" / "libtable.so.1", "int t(void) { return 1; }\n", soname="libtable.so.1")
    for dist, ident in (("cvbase", 1), ("cvcontrib", 22)):
        extra = "static char more[8192] = {1};\nint contrib(void) { return more[0]; }\n" if ident > 1 else ""
        mod = gcc_shared(tmp_path / f"build-{dist}" / f"cvx{EXT}", f"int which(void) {{ return {ident}; }}\n{extra}")
        files = {f"cvx/cvx{EXT}": mod, **({"cvbase_data/libtable.so.1": data} if dist == "cvbase" else {})}
        install_wheels(venv, build_wheel(tmp_path, dist, files))
    damaged = site_packages(venv) / "cvbase_data" / "libtable.so.1"
    damaged.write_bytes(damaged.read_bytes()[:100])
    snap = snapshot_of(venv, monkeypatch)
    assert len(findings(snap, "duplicate-install")) == 1
    (bad,) = findings(snap, "corrupt-install")
    assert evidence(bad, "file") == ["cvbase_data/libtable.so.1"] and "duplicate-install" in bad.message


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
