"""The healthy zoo: real, working Linux environments that `dldoctor check` must leave quiet.

Each environment is built once (cached under .cache/venvs/zoo-*), then proven healthy in the
test itself before it is judged: every top-level module of the requested distributions
imports in a fresh subprocess, and `pip check` is clean. Only then is any error or warning
from `dldoctor check` a false alarm (issue 12: a doctor that cries wolf gets uninstalled).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from ..conftest import cached_venv, check_json, find_python, make_venv, pip_install, venv_python

pytestmark = pytest.mark.machine

PLAIN = {"LD_LIBRARY_PATH": "", "PYTHONPATH": "", "LD_PRELOAD": ""}

# name -> (requirements, extra venv flags); torch only as the local 2.13.0 CPU wheel.
STACKS: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    "scientific": (("numpy", "scipy", "pandas", "scikit-learn", "matplotlib"), ()),
    "torch-lightning": (("torch==2.13.0", "torchmetrics", "lightning"), ()),
    "onnx": (("onnxruntime", "onnx", "protobuf"), ()),
    "cv-numba-arrow": (("opencv-python-headless", "numba", "pyarrow"), ()),
    "system-site": (("numpy",), ("--system-site-packages",)),
    # torch + an extension built here with torch.utils.cpp_extension (no RPATH to torch/lib:
    # libc10.so is found because `import torch` loaded it first).
    "torch-cpp-ext": (("torch==2.13.0", "setuptools", "numpy", "tinyop"), ()),
    "py38-scientific": (("numpy", "scipy", "pandas"), ()),
    "py313-scientific": (("numpy", "scipy", "pandas"), ()),
    # paddle imports setuptools at import time and does not declare it (`dldoctor check` says
    # import-failed without it: a true finding, so the healthy stack installs it).
    "paddle": (("paddlepaddle", "setuptools"), ()),
    "tensorflow": (("tensorflow-cpu",), ()),
    "jax": (("jax[cpu]",), ()),
    "transformers": (("torch==2.13.0", "transformers", "tokenizers", "safetensors", "accelerate"), ()),
}
# Stacks on another interpreter than pyenv's 3.11 (the oldest and newest supported Pythons).
PYTHON_OF = {"py38-scientific": "3.8", "py313-scientific": "3.13"}

TINYOP_SETUP = """
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
setup(name="tinyop", version="1.0", packages=["tinyop"], install_requires=["torch"],
      ext_modules=[CppExtension("tinyop._C", ["tinyop.cpp"])], cmdclass={"build_ext": BuildExtension})
"""
TINYOP_CPP = """
#include <torch/extension.h>
torch::Tensor twice(const torch::Tensor& x) { return x * 2; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("twice", &twice); }
"""
# As torchvision does: the package imports torch (which loads libc10.so) before its _C.
TINYOP_PY = "import torch\nfrom . import _C\nassert _C.twice(torch.ones(2)).sum().item() == 4\n"


def build_tinyop(venv: Path) -> None:
    """A real torch C++ extension, compiled with gcc through BuildExtension, installed by pip."""
    src = venv / "tinyop-src"
    src.mkdir()
    (src / "setup.py").write_text(TINYOP_SETUP)
    (src / "tinyop.cpp").write_text(TINYOP_CPP)
    (src / "tinyop").mkdir()
    (src / "tinyop" / "__init__.py").write_text(TINYOP_PY)
    pip_install(venv_python(venv), "--no-build-isolation", "--no-deps", str(src))

# Distributions whose top-level import names differ from what RECORD shows, or that ship
# helper top-levels that are not importable on their own (console scripts' folders etc.).
_NOT_MODULES = {"bin", "include", "share", "etc", "lib", "lib64", "..", "licenses"}


def zoo_venv(name: str) -> Path:
    """The stack's venv, built once: a real venv from pyenv 3.11, packages from the registry."""
    packages, flags = STACKS[name]
    version = PYTHON_OF.get(name, "3.11")

    def build(venv: Path) -> None:
        wanted = [p for p in packages if p != "tinyop"]
        if flags:
            subprocess.run([find_python(version), "-m", "venv", *flags, str(venv)], check=True)
            pip_install(venv_python(venv), *wanted)
        else:
            make_venv(venv, find_python(version), packages=wanted)
        if "tinyop" in packages:
            build_tinyop(venv)

    key = (*packages, *flags) if version == "3.11" else (*packages, *flags, f"python{version}")
    return cached_venv(f"zoo-{name}", key, build)


def top_level_modules(venv: Path, dists: Sequence[str]) -> List[str]:
    """Top-level importable names of ``dists`` as installed (top_level.txt, else RECORD)."""
    script = textwrap.dedent("""
        import json, sys
        from importlib import metadata
        out = set()
        for spec in sys.argv[1:]:
            d = metadata.distribution(spec.split("==")[0].split("[")[0])
            top = d.read_text("top_level.txt")
            names = top.split() if top else [
                str(f).split("/")[0].split(".")[0] for f in (d.files or ())
                if not str(f).split("/")[0].endswith((".dist-info", ".data", ".libs"))
                and (str(f).endswith((".py", ".so")) or "/" in str(f))]
            out.update(n for n in names if n and not n.startswith(("_", ".")) and "-" not in n)
        print(json.dumps(sorted(out)))
    """)
    done = subprocess.run([str(venv_python(venv)), "-c", script, *dists], capture_output=True,
                          text=True, check=True, env={**PLAIN, "PATH": "/usr/bin:/bin"})
    return [m for m in json.loads(done.stdout) if m not in _NOT_MODULES]


def prove_healthy(venv: Path, dists: Sequence[str]) -> None:
    """Ground truth by execution: each top-level module imports alone; pip check is clean."""
    modules = top_level_modules(venv, dists)
    assert modules, dists
    failed = {}
    for mod in modules:
        done = subprocess.run([str(venv_python(venv)), "-c", f"import {mod}"], capture_output=True,
                              text=True, timeout=300, env={**PLAIN, "PATH": "/usr/bin:/bin", "HOME": str(venv)})
        if done.returncode != 0:
            failed[mod] = done.stderr.strip().splitlines()[-1:]
    assert failed == {}, failed
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv_python(venv)), "check"],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stdout


def loud(report: Dict[str, object]) -> List[str]:
    return [f"{f['severity']} {f['slug']}: {f['message']}" for f in report["findings"]  # type: ignore[index,union-attr]
            if f["severity"] in ("error", "warning")]


@pytest.mark.parametrize("name", sorted(STACKS))
def test_healthy_stack_is_quiet(name: str) -> None:
    venv = zoo_venv(name)
    prove_healthy(venv, STACKS[name][0])
    report = check_json("--python", str(venv_python(venv)), env=PLAIN)
    assert loud(report) == []


def test_numbas_optional_tbb_layer_is_info_through_a_symlinked_venv(tmp_path: Path) -> None:
    """numba's tbbpool needs libtbb.so.12, which is not installed: numba falls back to its
    OpenMP / workqueue layer (proven: `import numba.np.ufunc.parallel` works above), so the
    missing library is info with that evidence. Reached through a symlinked folder, the
    extension keeps its owner (the load graph names real paths, RECORD the linked ones)."""
    venv = zoo_venv("cv-numba-arrow")
    link = tmp_path / "linked-venv"
    link.symlink_to(venv.resolve())
    report = check_json("--python", str(venv_python(link)), env=PLAIN)
    assert loud(report) == []
    (tbb,) = [f for f in report["findings"] if "tbbpool" in f["message"]]  # type: ignore[union-attr]
    assert tbb["severity"] == "info" and tbb["slug"] == "missing-shared-library"
    assert tbb["message"].startswith("tbbpool.cpython-311-x86_64-linux-gnu.so (numba) needs libtbb.so.12")
    assert any(e["label"] == "falls back to" for e in tbb["evidence"])
