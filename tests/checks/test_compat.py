"""Version compatibility checks: synthetic snapshots for the data paths; the real broken
environments (built from registry wheels) are in tests/checks/test_compat_envs.py."""

from __future__ import annotations

from ..builders import distribution, findings, messages, snapshot


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
    assert f.message == ("import torchvision fails: torchvision 0.20.0 is built for torch==2.5.0, "
                         "but torch 2.5.1 is installed")
    assert f.fix.startswith("python -m pip install torchvision==0.20.1 ")
    assert messages(snap, "requirement-conflict") == []  # reported once, by the specific condition


def test_companion_mismatch_is_quiet_when_healthy() -> None:
    snap = _env(distribution("torchvision", "0.20.1", requires=("torch==2.5.1",)), distribution("torch", "2.5.1+cpu"))
    assert messages(snap, "companion-mismatch") == []


def test_numpy_abi_mismatch_is_found() -> None:
    snap = _env(distribution("opencv-python", "4.8.0.74", requires=("numpy<2,>=1.21.2",), top_level=("cv2",)),
                distribution("numpy", "2.4.6"))
    assert messages(snap, "numpy-abi-mismatch") == [
        "import cv2 fails: opencv-python 4.8.0.74 is built for NumPy 1.x (numpy<2,>=1.21.2), "
        "but numpy 2.4.6 is installed"]
    assert messages(snap, "requirement-conflict") == []


def test_numpy_abi_mismatch_is_quiet_when_healthy() -> None:
    snap = _env(distribution("opencv-python", "4.8.0.74", requires=("numpy<2,>=1.21.2",)),
                distribution("numpy", "1.26.4"))
    assert messages(snap, "numpy-abi-mismatch") == []
