"""The compatibility family on real broken environments (issue 13's table), each with a
healthy twin: real registry wheels, the local torch 2.13.0 CPU wheel, a real import that
proves each environment broken, the finding and its first place among the errors, and, where
the fix can run here (the registry is reachable, the PyTorch wheel index is not), the printed
fix run on a private copy and the import that then works.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Dict, List

import pytest

from dldoctor.model import Finding
from dldoctor.render.json import report_dict
from dldoctor.report import build_report
from dldoctor.snapshot.collect import collect_snapshot
from dldoctor.snapshot.model import Snapshot

from ..conftest import check_json, pip_install, venv_python
from . import compat_envs
from .compat_envs import copy_of, run_python

pytestmark = pytest.mark.machine

MINE = ("requirement-conflict", "companion-mismatch", "numpy-abi-mismatch")
_SNAPS: Dict[Path, Snapshot] = {}


@pytest.fixture(scope="module")
def env(torch_venv: Path):  # type: ignore[no-untyped-def]
    def get(name: str) -> Path:
        return compat_envs.build(name, torch_venv)
    return get


def snap_of(venv: Path) -> Snapshot:
    if venv not in _SNAPS:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("LD_LIBRARY_PATH", "")
            mp.delenv("PYTHONPATH", raising=False)
            _SNAPS[venv] = collect_snapshot(str(venv_python(venv)))
    return _SNAPS[venv]


def errors(snap: Snapshot) -> List[Dict[str, Any]]:
    """The error findings in the order `dldoctor check` prints them."""
    return [f for f in report_dict(build_report(snap))["findings"] if f["severity"] == "error"]


def mine(snap: Snapshot, slug: str) -> List[Finding]:
    return [f for r in build_report(snap).results if r.condition.slug == slug for f in r.findings]


def fails(venv: Path, code: str, text: str) -> None:
    done = run_python(venv, code)
    assert done.returncode != 0 and text in done.stderr, done.stderr[-2000:]


def works(venv: Path, code: str) -> None:
    done = run_python(venv, code)
    assert done.returncode == 0, done.stderr[-2000:]


def pip(venv: Path) -> str:
    """How a fix for ``venv`` starts: its own interpreter's pip (the shell's ``python`` is
    another environment's), never a bare ``python``."""
    return f"{venv_python(venv)} -m pip"


def run_fix(venv: Path, fix: str) -> None:
    """Run the printed `PY -m pip install ...` command, which must name ``venv``'s interpreter
    (its pip is the test runner's, pointed at that interpreter: the venvs are built without pip)."""
    command = fix.split("   (")[0].split(", or ")[0]
    words = shlex.split(command)
    assert words[:4] == [str(venv_python(venv)), "-m", "pip", "install"], fix
    pip_install(venv_python(venv), *words[4:])
    _SNAPS.pop(venv, None)


def same_finding(venv: Path, f: Finding) -> Finding:
    """``f`` as a check of ``venv`` (a copy of the venv it was found in) prints it."""
    (again,) = [g for r in build_report(snap_of(venv)).results for g in r.findings if g.message == f.message]
    return again


def quiet(snap: Snapshot) -> None:
    for slug in MINE:
        assert [f.message for f in mine(snap, slug)] == [], slug


# ------------------------------------------------------------------------ NumPy's ABI
def test_numpy2_under_numpy1_builds_is_the_first_error(env) -> None:  # type: ignore[no-untyped-def]
    venv = env("numpy2-old-builds")
    fails(venv, "import pandas", "numpy.dtype size changed, may indicate binary incompatibility")
    fails(venv, "import cv2", "A module that was compiled using NumPy 1.x cannot be run in")
    snap = snap_of(venv)
    errs = errors(snap)
    assert errs and {f["slug"] for f in errs} == {"numpy-abi-mismatch"}
    static = [f for f in mine(snap, "numpy-abi-mismatch") if not f.observed]
    assert sorted(f.message for f in static) == [
        "import cv2 fails: opencv-python 4.8.0.74 was built for NumPy 1.x (needs numpy<2), "
        "but numpy 2.4.6 is installed",
        "import pandas fails: pandas 1.5.3 was built for NumPy 1.x (needs numpy<2), but numpy 2.4.6 is installed",
    ]
    fixes = {f.message.split()[1]: f.fix for f in static}
    assert fixes["pandas"].startswith(f'{pip(venv)} install "pandas>=2.2.2"')
    assert fixes["pandas"].endswith(f'or keep NumPy 1: {pip(venv)} install "numpy<2"')
    assert fixes["cv2"].startswith(f'{pip(venv)} install "opencv-python>=4.10.0.84"')


def test_numpy_fixes_run_and_the_imports_work(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = env("numpy2-old-builds")
    (pandas,) = [f for f in mine(snap_of(broken), "numpy-abi-mismatch") if "pandas" in f.message and not f.observed]
    keep_numpy1 = copy_of(broken, tmp_path / "numpy1")
    pip_install(venv_python(keep_numpy1), "numpy<2")  # the fix's second half, as printed
    works(keep_numpy1, "import pandas, cv2")
    quiet(snap_of(keep_numpy1))
    upgraded = copy_of(broken, tmp_path / "upgraded")
    run_fix(upgraded, same_finding(upgraded, pandas).fix)  # its first half: the pandas built for NumPy 2
    works(upgraded, "import pandas")
    assert not [f for f in mine(snap_of(upgraded), "numpy-abi-mismatch") if "pandas" in f.message]


@pytest.mark.parametrize("name", ["numpy2-new-builds", "numpy1-new-builds"])
def test_numpy_builds_that_fit_are_quiet(env, name: str) -> None:  # type: ignore[no-untyped-def]
    venv = env(name)  # NumPy 2 builds under NumPy 2, and under NumPy 1.x (they run there too)
    works(venv, "import pandas, cv2")
    snap = snap_of(venv)
    quiet(snap)
    assert errors(snap) == []


# ------------------------------------------------------------------------ torch's satellites
def test_satellites_of_another_torch_release(env) -> None:  # type: ignore[no-untyped-def]
    venv = env("torch-old-satellites")
    fails(venv, "import torchvision", "operator torchvision::nms does not exist")
    fails(venv, "import torchaudio", "libtorchaudio.so")
    snap = snap_of(venv)
    errs = errors(snap)
    # the cause, once per satellite, and none of the libraries it implies as errors of their own
    assert [f["slug"] for f in errs] == ["companion-mismatch", "companion-mismatch"]
    vision, audio = sorted(mine(snap, "companion-mismatch"), key=lambda f: f.message, reverse=True)
    assert vision.message == ("import torchvision fails: torchvision 0.20.0 does not fit torch 2.13.0+cpu: "
                              "it requires torch==2.5.0; it is a CUDA 12 build, torch 2.13.0+cpu is the CPU build")
    assert audio.message.startswith("import torchaudio fails: torchaudio 2.5.0 does not fit torch 2.13.0+cpu: "
                                    "it requires torch==2.5.0")
    assert vision.fix == (f'{pip(venv)} install "torchvision==0.28.0+cpu" "torch==2.13.0+cpu" '
                          "--index-url https://download.pytorch.org/whl/cpu")
    built = [e.value for e in vision.evidence if e.label == "built for"]
    assert built and "libtorch_cuda.so" in built[0] and "libcudart.so.12" in built[0]
    assert mine(snap, "missing-shared-library") == []


def test_a_cuda_satellite_on_a_cpu_torch(env) -> None:  # type: ignore[no-untyped-def]
    venv = env("torch-cuda-vision")  # pip install timm pulls the PyPI torchvision: a CUDA build
    fails(venv, "import torchvision", "operator torchvision::nms does not exist")
    snap = snap_of(venv)
    assert [f["slug"] for f in errors(snap)] == ["companion-mismatch"]
    (f,) = mine(snap, "companion-mismatch")
    assert f.message == ("import torchvision fails: torchvision 0.28.0 does not fit torch 2.13.0+cpu: "
                         "it is a CUDA 13 build, torch 2.13.0+cpu is the CPU build")
    assert "--index-url https://download.pytorch.org/whl/cpu" in f.fix
    assert mine(snap, "missing-shared-library") == []


def test_the_cli_names_the_satellite_first(env) -> None:  # type: ignore[no-untyped-def]
    """What a user runs: `dldoctor check` (with its import probes) puts the cause first."""
    venv = env("torch-cuda-vision")
    report = check_json("--python", str(venv_python(venv)), env={"LD_LIBRARY_PATH": "", "PYTHONPATH": ""})
    errs = [f for f in report["findings"] if f["severity"] == "error"]  # type: ignore[index,union-attr]
    assert errs and errs[0]["slug"] == "companion-mismatch"
    assert not [f for f in errs if f["slug"] == "missing-shared-library"]


def test_torch_alone_is_quiet(torch_venv: Path) -> None:
    works(torch_venv, "import torch, numpy, scipy")
    quiet(snap_of(torch_venv))


# ------------------------------------------------------------------------ requirements
def the_error(venv: Path) -> Finding:
    """The one error of ``venv``: requirement-conflict, first and alone."""
    snap = snap_of(venv)
    assert [f["slug"] for f in errors(snap)] == ["requirement-conflict"]
    (f,) = mine(snap, "requirement-conflict")
    return f


def fixed_by(broken: Path, f: Finding, tmp_path: Path, code: str) -> None:
    """The printed fix, run on a copy of ``broken``, makes ``code`` work and the check quiet."""
    fixed = copy_of(broken, tmp_path / "fixed")
    run_fix(fixed, same_finding(fixed, f).fix)
    works(fixed, code)
    quiet(snap_of(fixed))


def test_tokenizers_older_than_transformers_requires(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = env("transformers-old-tokenizers")
    fails(broken, "import transformers", "tokenizers>=0.20,<0.21 is required for a normal functioning")
    f = the_error(broken)
    assert f.message == ("import transformers fails: transformers 4.46.3 requires tokenizers<0.21,>=0.20, "
                         "but 0.19.1 is installed")
    fixed_by(broken, f, tmp_path, "import transformers")


def test_protobuf_older_than_onnx_and_tensorboard_require(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = env("protobuf-old")
    fails(broken, "import onnx", "cannot import name 'runtime_version' from 'google.protobuf'")
    fails(broken, "from tensorboard.compat.proto import summary_pb2", "runtime_version")
    f = the_error(broken)
    assert f.message.startswith("import onnx and import tensorboard fail: onnx 1.23.2 requires protobuf>=6.31.1")
    assert f.fix.startswith(f'{pip(broken)} install "protobuf<8.0.0,>=6.31.1"')
    fixed_by(broken, f, tmp_path, "import onnx; from tensorboard.compat.proto import summary_pb2")


def test_torch_without_sympy(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    broken = env("torch-no-sympy")
    works(broken, "import torch")  # the import works; torch.compile and torch.fx do not
    fails(broken, "import torch.fx.experimental.symbolic_shapes", "No module named 'sympy'")
    f = the_error(broken)
    assert f.message == ("torch needs sympy (torch.compile and torch.fx fail): torch 2.13.0+cpu requires "
                         "sympy>=1.13.3, but it is not installed")
    fixed_by(broken, f, tmp_path, "import torch.fx.experimental.symbolic_shapes")


@pytest.mark.parametrize(("name", "code"), [
    ("transformers", "import transformers"),
    ("onnx-tensorboard", "import onnx; from tensorboard.compat.proto import summary_pb2"),
])
def test_requirements_that_fit_are_quiet(env, name: str, code: str) -> None:  # type: ignore[no-untyped-def]
    venv = env(name)
    works(venv, code)
    quiet(snap_of(venv))
