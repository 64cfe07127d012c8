"""Real broken environments of the compatibility family, built once and cached under
``.cache/venvs`` (as ``tests/conftest.py`` caches the torch venv): real wheels from the
registry, ``--no-deps`` where a broken set is what pip would otherwise refuse to make.

Each environment is a list of steps run in order on a fresh Python 3.11 venv, or on a copy
of the cached torch venv (the only torch here is the local 2.13.0 CPU wheel): a step is the
arguments of one ``pip install``, or ``("uninstall", name)``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from ..conftest import cached_venv, find_python, make_venv, pip_install, venv_python

Steps = Tuple[Tuple[str, ...], ...]

NUMPY2 = "numpy==2.4.6"
TRANSFORMERS = ("transformers==4.46.3",)
ONNX_TB = ("onnx==1.23.2", "tensorboard==2.21.0")
PANDAS_DEPS = ("python-dateutil==2.9.0.post0", "pytz==2025.2", "tzdata==2025.2")

# name -> (copy of the torch venv?, steps)
ENVS: Dict[str, Tuple[bool, Steps]] = {
    # NumPy 2 under packages built against NumPy 1.x (the pandas 1.5.3 / opencv 4.8.0.74).
    "numpy2-old-builds": (False, ((NUMPY2, *PANDAS_DEPS),
                                  ("--no-deps", "pandas==1.5.3", "opencv-python==4.8.0.74"))),
    # Their twin: the releases built for NumPy 2.
    "numpy2-new-builds": (False, ((NUMPY2, *PANDAS_DEPS),
                                  ("--no-deps", "pandas==2.2.3", "opencv-python==4.10.0.84"))),
    # The reverse: NumPy 1.x under the NumPy 2 builds (they run on 1.x too: no finding).
    "numpy1-new-builds": (False, (("numpy==1.26.4", *PANDAS_DEPS),
                                  ("--no-deps", "pandas==2.2.3", "opencv-python==4.10.0.84"))),
    # torch 2.13.0 (CPU) with satellites of torch 2.5.0 (PyPI: CUDA 12.4 builds).
    "torch-old-satellites": (True, (("pillow==11.3.0",),
                                    ("--no-deps", "torchvision==0.20.0", "torchaudio==2.5.0"))),
    # torch 2.13.0+cpu with the PyPI torchvision of the same release, a CUDA build.
    "torch-cuda-vision": (True, (("pillow==11.3.0",), ("--no-deps", "torchvision==0.28.0"))),
    # torch without sympy (pip uninstall sympy, or a --no-deps install).
    "torch-no-sympy": (True, (("uninstall", "sympy"),)),
    # transformers with a tokenizers older than it requires, and its twin.
    "transformers-old-tokenizers": (False, (TRANSFORMERS, ("tokenizers==0.19.1",))),
    "transformers": (False, (TRANSFORMERS,)),
    # onnx and tensorboard over protobuf 3.20 (pip warns and installs it), and their twin.
    "protobuf-old": (False, (ONNX_TB, ("protobuf==3.20.3",))),
    "onnx-tensorboard": (False, (ONNX_TB,)),
}


def build(name: str, torch_venv: Optional[Path]) -> Path:
    """The environment ``name`` of :data:`ENVS`, built once (a copy of ``torch_venv`` first
    when the entry says so) and reused while its recipe is unchanged."""
    on_torch, steps = ENVS[name]

    def make(venv: Path) -> None:
        if on_torch:
            assert torch_venv is not None
            shutil.copytree(torch_venv, venv, symlinks=True)
            (venv / ".complete").unlink(missing_ok=True)
        else:
            make_venv(venv, find_python("3.11"))
        for step in steps:
            run_step(venv, step)

    return cached_venv(f"compat-{name}", (repr((on_torch, torch_venv.name if torch_venv else "", steps)),), make)


def run_step(venv: Path, step: Sequence[str]) -> None:
    if step[0] == "uninstall":
        subprocess.run([sys.executable, "-m", "pip", "--python", str(venv_python(venv)), "uninstall", "-q", "-y",
                        *step[1:]], check=True, stdout=subprocess.DEVNULL)
    else:
        pip_install(venv_python(venv), *step)


def copy_of(venv: Path, dest: Path) -> Path:
    """A private copy of a cached environment, for a test that changes it (runs a fix)."""
    shutil.copytree(venv, dest, symlinks=True)
    return dest


def run_python(venv: Path, code: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    """Run ``code`` in the environment's interpreter, as the user's import would."""
    return subprocess.run([str(venv_python(venv)), "-c", code], capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "", "PYTHONPATH": ""})
