"""The healthy zoo, Windows side: real win_amd64 wheel sets `dldoctor wheels` must leave quiet.

Each set's health is argued from its wheels' PE imports (read with dldoctor.binary, listed per
fixture): every DLL a module imports is in System32 of a stock Windows, in python.org
CPython 3.11's folder (vcruntime140.dll, vcruntime140_1.dll), or shipped in the set where
the package's own import makes the loader find it. Any error or warning is a false alarm.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from dldoctor.loader.pysteps import read_steps
from dldoctor.wheelset.wheel import Layout, read_wheel, source_steps

from ..builders import fetch
from .test_wheels import wheels_json

pytestmark = pytest.mark.slow

# name -> (pins, extra flags for a machine the set needs, why it is healthy)
SETS: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    # sklearn's .pyd import vcomp140.dll and msvcp140.dll: both ship in sklearn\.libs and
    # sklearn/_distributor_init.py (imported by sklearn/__init__.py) preloads them by full
    # path. numpy/scipy import delvewheel's msvcp140-<hash>.dll from <pkg>.libs, which their
    # patched __init__ adds with os.add_dll_directory. Healthy on a stock Windows.
    "sklearn": (("scikit-learn==1.9.1", "numpy==2.4.6", "scipy==1.17.1"), ()),
    # PyQt5's .pyd import Qt5*.dll from PyQt5-Qt5's PyQt5\Qt5\bin, which PyQt5/__init__.py
    # passes to os.add_dll_directory; Qt5\bin also ships msvcp140.dll / concrt140.dll that
    # Qt5Core.dll loads from its own folder before any plugin needs them. Stock Windows.
    "pyqt5": (("PyQt5==5.15.11", "PyQt5-Qt5==5.15.2", "PyQt5-sip==12.20.0"), ()),
    # cv2.pyd imports only System32 DLLs (and msvcrt.dll); numpy as above. Stock Windows.
    "opencv": (("opencv-python==5.0.0.93", "numpy==2.4.6"), ()),
    # onnxruntime.dll imports msvcp140.dll / msvcp140_1.dll, which it does not ship: healthy
    # where the Visual C++ 2015-2022 Redistributable is installed (on a stock Windows
    # missing-vc-runtime is a true finding, asserted below).
    "onnxruntime": (("onnxruntime==1.31.1", "numpy==2.4.6"), ("--vc-redist", "14.44")),
    # pandas imports delvewheel's msvcp140-<hash>.dll from pandas.libs (add_dll_directory),
    # pyarrow's DLLs sit beside its .pyd; lib.cp311-win_amd64.pyd in both is two modules
    # loaded by full path, never one name shared. Stock Windows.
    "pandas-arrow": (("pandas==3.1.1", "numpy==2.4.6", "pyarrow==17.0.0"), ()),
}


def loud(report: Dict[str, object]) -> List[str]:
    return [f"{f['severity']} {f['slug']}: {f['message']}" for f in report["findings"]  # type: ignore[index,union-attr]
            if f["severity"] in ("error", "warning")]


@pytest.mark.parametrize("name", sorted(SETS))
def test_healthy_wheel_set_is_quiet(name: str) -> None:
    pins, flags = SETS[name]
    report = wheels_json(*(str(fetch(p)) for p in pins), *flags)
    assert loud(report) == []
    assert report["exit"] == 0


def test_onnxruntime_on_stock_windows_still_lacks_msvcp140() -> None:
    report = wheels_json(str(fetch("onnxruntime==1.31.1")), str(fetch("numpy==2.4.6")))
    assert [m for m in loud(report) if "missing-vc-runtime" in m] == [
        "error missing-vc-runtime: msvcp140.dll, msvcp140_1.dll not found (System32 or next to onnxruntime.dll, "
        "onnxruntime_pybind11_state.pyd)"]


@pytest.mark.parametrize(("pin", "dirs", "preloads"), [
    ("PyQt5==5.15.11", ("PyQt5/Qt5/bin",), ()),
    ("scikit-learn==1.9.1", (), ("sklearn/.libs/vcomp140.dll", "sklearn/.libs/msvcp140.dll")),
    ("numpy==2.4.6", ("numpy.libs",), ()),
    ("torch==2.15.0", ("torch/lib",), ("torch/lib/*.dll",)),
])
def test_loader_steps_are_read_from_the_wheels_own_python(pin: str, dirs: Tuple[str, ...],
                                                          preloads: Tuple[str, ...]) -> None:
    """Read statically (ast) from the package's __init__.py and what it imports, never run."""
    steps = source_steps(read_wheel(str(fetch(pin)), Layout()))
    assert steps.dll_directories == dirs
    assert steps.preloads == preloads


def test_names_without_a_path_and_hostile_sources_give_nothing(tmp_path: Path) -> None:
    src = "\n".join([
        "import ctypes, os",
        "ctypes.CDLL('vcruntime140.dll')",  # a load by name: System32's business, not a file here
        "os.add_dll_directory(os.path.join(os.path.dirname(__file__), '..', '..', 'outside'))",
        "here = os.path.dirname(__file__)",
        "os.add_dll_directory(here + '\\\\bin')",
    ])
    steps = read_steps([("pkg/__init__.py", src), ("bad/__init__.py", "def (:"),
                        ("deep/__init__.py", "x = " + "(" * 5000 + "1" + ")" * 5000)])
    assert steps.dll_directories == ("pkg/bin",)
    assert steps.preloads == ()
    whl = tmp_path / "junk-1.0-py3-none-win_amd64.whl"
    with zipfile.ZipFile(whl, "w") as zf:
        zf.writestr("junk/__init__.py", b"\xff\xfe not python")
    assert source_steps(read_wheel(str(whl), Layout())).dll_directories == ()
