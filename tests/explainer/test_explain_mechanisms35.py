"""Mechanism-level rules, thirty-fifth round (issue 14, item 2): written on generation 28's
held-out cases after their one measurement, and on its train cases; each with a text of our
own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

from .ranked import assert_named_first, assert_not_named_first

# (text, the cause the mechanism implies first)
CASES = [
    # torch's Python bindings (THP*) unresolved in a user's own *_cuda extension: imported before torch
    ("import fastops_cuda\nImportError: ./fastops_cuda.so: undefined symbol: THPVariableClass",
     "import-order-conflict"),
    # a project's own library, a pre-release soname, not on the loader's path
    ("ImportError: libmylib.so.2.0.0-rc1: cannot open shared object file: No such file or directory\n"
     "I have already added build/python to my PYTHONPATH", "missing-shared-library"),
    # cudaErrorUnsupportedPtxVersion told by its number: the driver is older than the toolkit
    ("[TensorRT] ERROR: CUDA initialization failure with error 222. Please check your CUDA installation",
     "driver-too-old"),
    ("ggml_cuda_init: CUDA error 222 at ggml-cuda.cu:1200", "driver-too-old"),
    ("cudaError 222 returned by cudaMalloc", "driver-too-old"),
    ("CUDA runtime error (222): the provided PTX was compiled with an unsupported toolchain", "driver-too-old"),
    # a framework with no 32-bit ARM wheel, on a 32-bit ARM machine
    ("uname -m says armv7l\nERROR: Could not find a version that satisfies the requirement onnxruntime "
     "(from versions: none)\nERROR: No matching distribution found for onnxruntime", "wrong-architecture"),
    ("Raspberry Pi OS 32-bit, Python 3.11\nERROR: No matching distribution found for torch==2.1.0",
     "wrong-architecture"),
    # SciPy's own range check on NumPy
    ("UserWarning: A NumPy version >=1.23.5 and <2.3.0 is required for this version of SciPy (detected version "
     "1.21.6)\n  from scipy import linalg", "requirement-conflict"),
    # a framework imported from its checkout lacks a name its build generates
    (">>> import tensorflow\nTraceback (most recent call last):\n  File \"/home/u/git/tensorflow/tensorflow/"
     "__init__.py\", line 24, in <module>\n    from tensorflow.python import build_info\nImportError: cannot "
     "import name 'build_info'", "shadowed-module"),
    # the CPU build where a GPU was wanted, in a launcher's words, Intel's, the usual check's output, the user's
    ("RuntimeError: PyTorch is not able to access CUDA", "cpu-only-build"),
    ("AssertionError: Torch not compiled with XPU enabled", "cpu-only-build"),
    ("$ python -c \"import torch; print(torch.__version__); print(torch.version.cuda); "
     "print(torch.cuda.is_available())\"\n2.5.1+cpu\nNone\nFalse", "cpu-only-build"),
    ("pip gives me the cpu version instead of cu121, although I passed the index url", "cpu-only-build"),
    ("uv resolves to the +cpu wheel instead of +cu121 on Windows", "cpu-only-build"),
    (">>> torch.__version__\n'2.5.1+cpu'\n>>> torch.version.cuda\n>>> torch.cuda.is_available()\nFalse",
     "cpu-only-build"),
    ("torch: 2.5.1+cpu\ncuda: None\navailable: False", "cpu-only-build"),
    # Triton finds no C compiler to build its helper
    ("RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
     "extension-build-env"),
    # vllm's swallowed ImportError of its compiled ops
    ("NameError: name 'vllm_ops' is not defined", "extension-abi-mismatch"),
    ("NameError: name 'vllm_cache_ops' is not defined", "extension-abi-mismatch"),
    # an ARMv6 board whose name runs into a Japanese word; the signal's name too
    ("Raspberry pi ZEROでtfliteを動かすと、Illegal instructionが発生します。", "cpu-instructions-unsupported"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # a known extension package with a mangled torch symbol: another torch's build, not the import order
    ("ImportError: flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c104cuda9SetDeviceEi", "import-order-conflict"),
    # error 222 that is no CUDA error
    ("HTTP error 222 from the mirror while downloading the model", "driver-too-old"),
    # 64-bit ARM (Jetson, aarch64), and a framework piwheels built for 32-bit ARM
    ("Jetson Orin, aarch64, Python 3.12\nERROR: No matching distribution found for torch==1.13.1",
     "wrong-architecture"),
    ("armv7l\nERROR: No matching distribution found for tensorflow==2.15.0", "wrong-architecture"),
    # an extension package named like torch, on 32-bit ARM: no framework
    ("armv7l\nERROR: No matching distribution found for torch-scatter", "wrong-architecture"),
    # a user's project laid out as repo/package, importing its own module
    ("Traceback (most recent call last):\n  File \"/home/u/myproj/myproj/models.py\", line 3, in <module>\n"
     "ImportError: cannot import name 'Encoder' from 'myproj.layers' (/home/u/myproj/myproj/layers.py)",
     "shadowed-module"),
    # an installed tensorflow's frames are site-packages
    ("  File \"/venv/lib/python3.11/site-packages/tensorflow/tensorflow/python/x.py\", line 3\n"
     "ImportError: cannot import name 'build_info'", "shadowed-module"),
    # a known extension package with a torch function's mangled THP name: another torch's build
    ("ImportError: /venv/lib/python3.10/site-packages/torch_scatter/_scatter_cuda.so: undefined symbol: "
     "_Z16THPVariable_WrapN2at10TensorBaseE", "import-order-conflict"),
    # pip lists versions for this 32-bit ARM: some fit, the pin is the reason; xformers has an sdist
    ("Platform: linux-armv7l\nERROR: Could not find a version that satisfies the requirement torch==2.5.0 (from "
     "versions: 1.13.0, 2.0.0)\nERROR: No matching distribution found for torch==2.5.0", "wrong-architecture"),
    ("armv7l\nERROR: No matching distribution found for xformers", "wrong-architecture"),
    # jax and keras checkouts import (an editable install): no generated name is missing
    ("  File \"/home/me/jax/jax/_src/lib/__init__.py\", line 3\nImportError: cannot import name 'xla_client' "
     "from 'jaxlib' (/venv/lib/python3.11/site-packages/jaxlib/__init__.py)", "shadowed-module"),
    # SciPy's warning beside the error that stopped the program: the error speaks first
    ("UserWarning: A NumPy version >=1.17.3 and <1.25.0 is required for this version of SciPy (detected version "
     "1.26.4\nRuntimeError: Found no NVIDIA driver on your system.", "requirement-conflict"),
    # a wish, not what was received
    ("I want the CPU version instead of the CUDA version to save space; how?", "cpu-only-build"),
    # a CUDA build printed, then False: no CPU build
    ("2.5.1+cu121\n12.1\nFalse", "cpu-only-build"),
    # the other way round: a CUDA build where the CPU one was wanted
    ("pip installed the cuda version instead of the cpu version and now the image is 4 GB", "cpu-only-build"),
]

HEALTHY = [
    "Resolved: the NumPy version >=1.25.2 and <2.6.0 that this SciPy wants is installed now, thanks",
    "2.5.1+cu121\n12.1\nTrue",
]


def test_the_soname_with_a_pre_release_tag_is_read_whole() -> None:
    """The library named is libfoo.so.1.0.0-rc3, not cut at the tag."""
    report = diagnose_text("ImportError: libfoo.so.1.0.0-rc3: cannot open shared object file", words=False)
    top = report.shown[0]
    assert top.slug == "missing-shared-library"
    assert dict(top.hits[0].subject)["lib"] == "libfoo.so.1.0.0-rc3"


def test_the_thp_symbol_in_a_named_extension_package_keeps_its_own_reading() -> None:
    """A known extension package (flash_attn) with a THP symbol: still the import order first."""
    assert_named_first("import flash_attn_cuda\nImportError: flash_attn_cuda.so: undefined symbol: THPVariableClass",
                       "import-order-conflict")
    assert_not_named_first("ImportError: flash_attn_cuda.so: undefined symbol: THPVariableClass",
                           "extension-abi-mismatch")


def test_a_count_of_222_is_no_cuda_error_code() -> None:
    """"CUDA error: 222 files processed" counts files: only the generic CUDA-error lead, never the
    PTX signature's 0.85."""
    report = diagnose_text("CUDA error: 222 files processed, 3 skipped", words=False)
    assert all(h.signature != "cuda-unsupported-ptx" for c in report.shown for h in c.hits)
