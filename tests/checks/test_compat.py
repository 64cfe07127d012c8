"""Version compatibility checks: synthetic snapshots for the data paths; the real broken
environments (built from registry wheels) are in tests/checks/test_compat_envs.py."""

from __future__ import annotations

from dldoctor.snapshot.model import Library

from ..builders import distribution, findings, framework, messages, snapshot


def _env(*dists):  # type: ignore[no-untyped-def]
    return snapshot(distributions=tuple(dists), interpreter__version_info=(3, 11, 7), interpreter__version="3.11.7")


def test_requirement_conflict_is_found() -> None:
    snap = _env(distribution("transformers", "4.30.0", requires=("tokenizers!=0.11.3,<0.14,>=0.11.1",),
                             top_level=("transformers",)),
                distribution("tokenizers", "0.15.0"))
    (f,) = findings(snap, "requirement-conflict")
    assert f.message == ("import transformers fails: transformers 4.30.0 requires "
                         "tokenizers!=0.11.3,<0.14,>=0.11.1, but 0.15.0 is installed")
    assert f.level.name == "ERROR"
    assert 'pip install "tokenizers!=0.11.3,<0.14,>=0.11.1"' in f.fix


def test_requirement_conflict_is_quiet_when_healthy() -> None:
    snap = _env(distribution("transformers", "4.30.0", requires=("tokenizers!=0.11.3,<0.14,>=0.11.1",
                                                                 "torch>=1.9; extra == 'torch'",
                                                                 "pywin32; sys_platform == 'win32'")),
                distribution("tokenizers", "0.13.3"))
    assert messages(snap, "requirement-conflict") == []


def test_requirement_markers_are_judged_for_the_target_interpreter() -> None:
    old = snapshot(distributions=(distribution("x", requires=("typing-extensions>=4; python_version < '3.9'",)),),
                   interpreter__markers={"python_version": "3.8", "python_full_version": "3.8.18"})
    new = snapshot(old, interpreter__markers={"python_version": "3.12", "python_full_version": "3.12.1"})
    assert messages(old, "requirement-conflict") == [
        "import x fails: x 1.0 requires typing-extensions>=4, but it is not installed"]
    assert messages(new, "requirement-conflict") == []


def test_companion_mismatch_is_found() -> None:
    snap = _env(distribution("torchvision", "0.20.0", requires=("torch==2.5.0", "numpy")),
                distribution("torch", "2.5.1"), distribution("numpy", "2.1.0"))
    (f,) = findings(snap, "companion-mismatch")
    assert f.message == ("import torchvision fails: torchvision 0.20.0 does not fit torch 2.5.1: "
                         "it requires torch==2.5.0")
    assert f.fix == 'python -m pip install "torchvision==0.20.1" "torch==2.5.1"'  # PyPI's torch: PyPI's satellites
    assert messages(snap, "requirement-conflict") == []  # reported once, by the specific condition


def test_companion_mismatch_is_quiet_when_healthy() -> None:
    snap = _env(distribution("torchvision", "0.20.1", requires=("torch==2.5.1",)), distribution("torch", "2.5.1+cpu"))
    assert messages(snap, "companion-mismatch") == []


def test_numpy_abi_mismatch_is_found() -> None:
    snap = _env(distribution("opencv-python", "4.8.0.74", requires=("numpy<2,>=1.21.2",), top_level=("cv2",)),
                distribution("numpy", "2.4.6"))
    assert messages(snap, "numpy-abi-mismatch") == [
        "import cv2 fails: opencv-python 4.8.0.74 was built for NumPy 1.x (needs numpy<2), "
        "but numpy 2.4.6 is installed"]
    assert messages(snap, "requirement-conflict") == []


def test_numpy_abi_mismatch_is_quiet_when_healthy() -> None:
    snap = _env(distribution("opencv-python", "4.8.0.74", requires=("numpy<2,>=1.21.2",)),
                distribution("numpy", "1.26.4"))
    assert messages(snap, "numpy-abi-mismatch") == []


def test_a_satellite_without_a_pin_is_judged_by_the_release_table() -> None:
    snap = _env(distribution("torchaudio", "2.5.0+cu121"), distribution("torch", "2.6.0+cu121"))
    assert messages(snap, "companion-mismatch") == [
        "import torchaudio fails: torchaudio 2.5.0+cu121 does not fit torch 2.6.0+cu121: "
        "it was released with torch 2.5.0"]
    assert findings(snap, "companion-mismatch")[0].fix == (
        'python -m pip install "torchaudio==2.6.0+cu121" "torch==2.6.0+cu121" '
        "--index-url https://download.pytorch.org/whl/cu121")


def test_a_satellite_of_another_cuda_major() -> None:
    lib = Library(path="/env/torchvision/_C.so", dist="torchvision",
                  info={"needed": ["libc10.so", "libtorch_cuda.so", "libcudart.so.11.0"]})
    snap = _env(distribution("torchvision", "0.20.1"), distribution("torch", "2.5.1"))
    snap = snapshot(snap, libraries=(lib,), frameworks=(framework("torch", "2.5.1", cuda="12.4"),))
    assert messages(snap, "companion-mismatch") == [
        "import torchvision fails: torchvision 0.20.1 does not fit torch 2.5.1: it is a CUDA 11 build, "
        "torch 2.5.1 is built for CUDA 12.4"]
    same = snapshot(snap, frameworks=(framework("torch", "2.5.1", cuda="11.8"),))
    assert messages(same, "companion-mismatch") == []


def test_requirements_of_one_name_are_one_finding_with_the_versions_that_fit_all() -> None:
    snap = _env(distribution("onnx", "1.23.2", requires=("protobuf>=6.31.1",)),
                distribution("tensorboard", "2.21.0", requires=("protobuf<8,>=6.31.1",)),
                distribution("protobuf", "3.20.3"))
    (f,) = findings(snap, "requirement-conflict")
    assert f.message.startswith("import onnx and import tensorboard fail: ")
    assert f.fix.startswith('python -m pip install "protobuf<8,>=6.31.1"')


def test_a_requirement_pip_check_reports_but_no_import_needs_is_a_warning() -> None:
    snap = _env(distribution("rich", "13.0", requires=("pygments<3,>=2.13",)), distribution("pygments", "2.10"))
    (f,) = findings(snap, "requirement-conflict")
    assert f.level.name == "WARNING" and f.message.endswith("(pip check reports it; the import may still work)")


def test_a_cpu_satellite_on_a_cuda_torch_is_a_warning() -> None:
    lib = Library(path="/env/torchvision/_C.so", dist="torchvision", info={"needed": ["libc10.so", "libtorch_cpu.so"]})
    snap = snapshot(_env(distribution("torchvision", "0.20.1+cpu"), distribution("torch", "2.5.1+cu124")),
                    libraries=(lib,), frameworks=(framework("torch", "2.5.1+cu124", cuda="12.4"),))
    (f,) = findings(snap, "companion-mismatch")
    assert f.level.name == "WARNING" and "it is a CPU build, torch 2.5.1+cu124 is built for CUDA 12.4" in f.message
    assert f.fix == ('python -m pip install "torchvision==0.20.1+cu124" "torch==2.5.1+cu124" '
                     "--index-url https://download.pytorch.org/whl/cu124")


def test_the_cuda_wheels_torch_pins_are_errors_where_their_markers_hold() -> None:
    torch = distribution("torch", "2.5.1", top_level=("functorch", "torch", "torchgen"), requires=(
        'nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and platform_machine == "x86_64"',
        "typing-extensions>=4.8.0"))
    cudnn, te = distribution("nvidia-cudnn-cu12", "9.5.0.50"), distribution("typing-extensions", "4.12.2")
    linux = snapshot(_env(torch, cudnn, te),
                     interpreter__markers={"platform_system": "Linux", "platform_machine": "x86_64"})
    (f,) = findings(linux, "requirement-conflict")
    assert f.level.name == "ERROR" and f.message == (
        "import torch fails: torch 2.5.1 requires nvidia-cudnn-cu12==9.1.0.70, but 9.5.0.50 is installed")
    windows = snapshot(linux, interpreter__markers={"platform_system": "Windows", "platform_machine": "AMD64"})
    assert messages(windows, "requirement-conflict") == []


def test_a_satellite_without_its_framework_is_a_missing_requirement() -> None:
    snap = _env(distribution("torchvision", "0.20.0", requires=("torch==2.5.0",)))
    assert messages(snap, "companion-mismatch") == []
    assert messages(snap, "requirement-conflict") == [
        "import torchvision fails: torchvision 0.20.0 requires torch==2.5.0, but it is not installed"]


def test_windows_dll_names_show_the_variant() -> None:
    lib = Library(path="C:/env/torchvision/_C.pyd", dist="torchvision",
                  info={"needed": ["C10.dll", "torch_cpu.dll", "C10_CUDA.dll", "cudart64_12.dll"]})
    snap = snapshot(_env(distribution("torchvision", "0.20.1"), distribution("torch", "2.5.1+cpu")),
                    host__os="windows", libraries=(lib,), frameworks=(framework("torch", "2.5.1+cpu"),))
    assert messages(snap, "companion-mismatch") == [
        "import torchvision fails: torchvision 0.20.1 does not fit torch 2.5.1+cpu: it is a CUDA 12 build, "
        "torch 2.5.1+cpu is the CPU build"]


def test_a_binding_library_built_for_numpy1_breaks_numpy_use_not_the_import() -> None:
    lib = Library(path="/env/torch/lib/libtorch_python.so", dist="torch", numpy_build="1")
    snap = snapshot(_env(distribution("torch", "2.2.2"), distribution("numpy", "2.1.0")), libraries=(lib,))
    (f,) = findings(snap, "numpy-abi-mismatch")
    assert f.message == ("torch's NumPy functions fail: torch 2.2.2 was built for NumPy 1.x (needs numpy<2), "
                         "but numpy 2.1.0 is installed")
    assert f.fix.startswith('python -m pip install "torch>=2.3.0"')


def test_a_requirement_a_shadowed_copy_would_meet_is_left_to_the_layer_that_shadows_it() -> None:
    user = "/home/u/.local/lib/python3.11/site-packages"
    snap = snapshot(_env(distribution("torch", "2.6.0", requires=("typing-extensions>=4.10.0",)),
                         distribution("typing_extensions", "4.5.0", location=user),
                         distribution("typing_extensions", "4.12.2", location="/usr/lib/python3.11/site-packages")),
                    interpreter__user_site=user)
    assert messages(snap, "requirement-conflict") == []
    alone = snapshot(snap, distributions=snap.distributions[:2])  # no copy that fits: it is the cause
    assert len(messages(alone, "requirement-conflict")) == 1
