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
from dldoctor.wheelset.imports import imported_first
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
    # The sets below are what `pip download --platform win_amd64 --python-version 3.11 X`
    # resolves (the native wheels of it; pure-Python ones load no DLL). Each needs the Visual
    # C++ Redistributable its project documents (msvcp140.dll, vcomp140.dll: on a stock Windows
    # missing-vc-runtime is a true finding, asserted below).
    # tensorflow: compiler\...\*.pyd import _pywrap_tensorflow_common.dll, which sits in
    # tensorflow\python and is loaded by tensorflow\python\_pywrap_tensorflow_internal.pyd
    # (imported by tensorflow/__init__ first); later modules get it by base name.
    "tensorflow": (("tensorflow-cpu==2.21.0", "numpy==2.4.6", "h5py==3.14.0", "ml-dtypes==0.6.0",
                    "grpcio==1.85.1", "protobuf==7.36.2", "wrapt==2.5.2", "optree==0.20.0",
                    "libclang==18.1.1"), ("--vc-redist", "14.44")),
    # paddle's libs\libiomp5md.dll and mkldnn.dll's vcomp140.dll (from the redistributable)
    # are two OpenMP runtimes by paddle's own design: info, not a warning (openmp.toml).
    "paddle": (("paddlepaddle==3.3.1", "numpy==2.4.6", "pillow==13.0.0", "safetensors==0.8.0",
                "protobuf==7.36.2"), ("--vc-redist", "14.44")),
    # onnxruntime.dll of the DirectML build imports DirectML.dll (shipped beside it) and
    # System32's d3d12.dll / dxgi.dll.
    "onnxruntime-directml": (("onnxruntime-directml==1.24.4", "numpy==2.4.6"), ("--vc-redist", "14.44")),
    # torchvision's _C.pyd imports c10.dll / torch_cpu.dll without a path: torchvision requires
    # torch and torchaudio/__init__.py imports torch first, whose loop over torch\lib\*.dll
    # has loaded them (the loader reuses a loaded module by base name).
    "torch-vision-audio": (("torch==2.11.0", "torchvision==0.26.0", "torchaudio==2.11.0", "numpy==2.4.6"),
                           ("--vc-redist", "14.44")),
    # mediapipe requires opencv-contrib-python and sounddevice; sounddevice ships PortAudio for
    # x64, x86 and arm64 and loads the one for the running machine by path (sounddevice.py,
    # platform.architecture()), so the x86 / arm64 DLLs are never loaded here: info only.
    # (opencv-python beside it would write cv2\cv2.pyd a second time: OpenCV's README says to
    # install one of its packages only; duplicate-install, asserted in test_wheels.py.)
    "opencv-mediapipe": (("opencv-contrib-python==5.0.0.93", "mediapipe==1.2.2",
                          "sounddevice==0.5.6", "cffi==2.1.1", "numpy==2.4.6", "matplotlib==3.11.2",
                          "pillow==13.0.0", "contourpy==1.3.3", "kiwisolver==1.5.1", "fonttools==4.68.0"), ()),
    # pywin32's .pyd import pywintypes311.dll / pythoncom311.dll from pywin32_system32, which
    # pywin32.pth's pywin32_bootstrap adds with os.add_dll_directory (preloads.toml); pythonwin's
    # MFC (mfc140u.dll) comes with the redistributable. numba's tbbpool misses tbb12.dll:
    # optional, numba falls back to another threading layer (info, asserted below).
    "gbm-numba-pywin32": (("xgboost==2.0.3", "lightgbm==4.7.0", "numba==0.68.1", "llvmlite==0.50.0",
                           "pywin32==312", "psutil==7.2.2", "numpy==2.4.6", "scipy==1.17.1"),
                          ("--vc-redist", "14.44")),
    # PyQt6-Qt6's Qt6Core.dll imports icuuc.dll, Windows' own ICU (System32 since Windows 10
    # 1703), and ships msvcp140*.dll 14.44.35211.0 in Qt6\\bin: the same build as the
    # 14.44 redistributable the spaCy / PyMuPDF / lxml modules import from System32.
    "qt6-spacy-docs": (("pyqt6==6.11.0", "pyqt6-qt6==6.11.2", "pyqt6-sip==13.13.0", "spacy==3.8.18",
                        "thinc==8.3.14", "blis==1.3.4", "cymem==2.0.16", "murmurhash==1.0.16",
                        "preshed==3.0.15", "srsly==2.5.6", "pydantic-core==2.50.4", "pyzmq==27.3.0",
                        "lxml==6.1.3", "cryptography==50.0.2", "cffi==2.1.1", "pymupdf==2.0",
                        "onnxruntime==1.32.0", "numpy==2.4.6"), ("--vc-redist", "14.44")),
    "jax": (("jax==0.10.2", "jaxlib==0.10.2", "ml-dtypes==0.6.0", "numpy==2.4.6", "scipy==1.17.1"),
            ("--vc-redist", "14.44")),
    # The fresh-eyes review's sets. tables ships an un-repaired tables\libblosc2.dll (it imports a
    # plain zlib-ng2.dll no wheel has) beside tables.libs\libblosc2.dll; tables/__init__.py's
    # _load_blosc2 loads the latter by full path first (preloads.toml), so its .pyd get that copy
    # by base name and the stray one never loads. numexpr's interpreter.pyd imports msvcp140.dll
    # from the redistributable.
    "hdf5-tables": (("tables==3.11.1", "blosc2==4.14.1", "numexpr==2.14.2", "h5py==3.16.0",
                     "netCDF4==1.7.5.1.post1", "cftime==1.6.6.1", "ndindex==1.10.1", "msgpack==1.2.4",
                     "numpy==2.4.6"), ("--vc-redist", "14.44")),
    # scikit-learn's sklearn\.libs copies of msvcp140.dll / vcomp140.dll (14.51) beside System32's
    # 14.44: which copy serves which package depends on the import order, and either works (the
    # VC++ runtime is backward compatible within 14.x): info, not a warning. numba's tbbpool
    # misses tbb12.dll (optional: info). pygame, PyAudio and soundfile ship what they import.
    # shiboken6 ships vcruntime140.dll / vcruntime140_1.dll (14.44) beside its module; contourpy's
    # import the interpreter's copies, which python3XX.dll loads before any package: every import
    # order ends with the interpreter's, so there is no order to get wrong.
    "shiboken-contourpy": (("shiboken6==6.12.0", "contourpy==1.3.3", "numpy==2.4.6"), ()),
    "audio-numba": (("pygame==2.6.1", "PyAudio==0.2.14", "sounddevice==0.5.6", "soundfile==0.14.0",
                     "numba==0.68.1", "llvmlite==0.50.0", "scikit-learn==1.9.1", "scipy==1.17.1",
                     "numpy==2.4.6", "cffi==2.1.1"), ("--vc-redist", "14.44")),
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


@pytest.mark.parametrize(("name", "missing"), [
    ("tensorflow", "msvcp140.dll"), ("paddle", "vcomp140.dll"), ("jax", "msvcp140.dll"),
    ("torch-vision-audio", "msvcp140.dll"), ("onnxruntime-directml", "msvcp140.dll"),
    ("qt6-spacy-docs", "msvcp140.dll")])
def test_redistributable_sets_on_stock_windows_still_lack_it(name: str, missing: str) -> None:
    """The true finding stays: each project documents the Visual C++ Redistributable."""
    report = wheels_json(*(str(fetch(p)) for p in SETS[name][0]))
    lacks = [m for m in loud(report) if m.startswith("error missing-vc-runtime")]
    assert len(lacks) == 1 and missing in lacks[0], loud(report)
    # the placeholder for the absent runtime is no "different copy" of a wheel's own msvcp140.dll
    assert [m for m in loud(report) if "dll-version-conflict" in m] == []


def test_torch_extensions_without_torch_still_miss_its_dlls() -> None:
    """What `import torch` loads only counts when torch is in the set: without it, c10.dll and
    torch_cpu.dll are missing (a name no module of the set can load still fails)."""
    report = wheels_json(str(fetch("torchvision==0.26.0")), str(fetch("torchaudio==2.11.0")),
                         "--vc-redist", "14.44")
    missing = [m for m in loud(report) if m.startswith("error missing-shared-library")]
    assert any("c10.dll" in m and "torchvision" in m for m in missing), missing
    assert any("torch_cpu.dll" in m and "torchaudio" in m for m in missing), missing


def test_what_a_package_imports_first_is_read_from_metadata_and_source() -> None:
    wheels = [read_wheel(str(fetch(p)), Layout()) for p in SETS["torch-vision-audio"][0]]
    first = imported_first(wheels)
    # torchaudio 2.11 has no Requires-Dist on torch: `import torch` in its __init__.py says it;
    # torch's own first imports come before torch (dependencies first)
    assert first["torchaudio"][-1] == "torch" and "torchvision" not in first["torchaudio"]
    assert first["torchvision"][-1] == "torch"
    assert first["numpy"] == []


def test_another_machines_dll_that_nothing_needs_is_info() -> None:
    report = wheels_json(str(fetch("sounddevice==0.5.6")), str(fetch("cffi==2.1.1")))
    wrong = [f for f in report["findings"] if f["slug"] == "wrong-architecture"]  # type: ignore[union-attr]
    assert {f["message"].split(" ")[0].rsplit("\\", 1)[-1] for f in wrong} == {
        "libportaudio32bit.dll", "libportaudio32bit-asio.dll", "libportaudioarm64.dll", "libportaudioarm64-asio.dll"}
    assert {f["severity"] for f in wrong} == {"info"}


def test_numbas_optional_tbb_layer_is_info_on_windows_too() -> None:
    report = wheels_json(*(str(fetch(p)) for p in SETS["gbm-numba-pywin32"][0]), "--vc-redist", "14.44")
    (tbb,) = [f for f in report["findings"] if "tbb12.dll" in f["message"]]  # type: ignore[union-attr]
    assert tbb["severity"] == "info" and tbb["slug"] == "missing-shared-library"
    assert any(e["label"] == "falls back to" for e in tbb["evidence"])
