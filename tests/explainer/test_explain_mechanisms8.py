"""Mechanism-level rules, eighth round (issue 14, item 2): the wrong assumptions generation 6's
train half showed (its held-out half never opened), each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # an extension that found a CPU-only torch: the torch is the problem, not the extension
    (
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
        "    PyTorch 2.4.0+cu121 with CUDA 1201 (you have 2.4.0+cpu)",
        "cpu-only-build",
    ),
    # torch's NumPy bridge without a NumPy it can use
    (
        '  File "nodes.py", line 1630, in save_images\n    i = 255. * image.cpu().numpy()\n'
        "RuntimeError: Numpy is not available",
        "numpy-abi-mismatch",
    ),
    # a research package's compiled op that was never built
    (
        "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!\nNameError: name '_C' is not defined",
        "extension-build-env",
    ),
    (
        "NameError: name '_C' is not defined\n\n  File \"models/attention.py\", line 40, in forward\n"
        "    out = _C.deform_attn_forward(value, shapes)",
        "extension-build-env",
    ),
    # a script named like the package it imports
    (
        'Traceback (most recent call last):\n  File "/home/ana/work/requests.py", line 1, in <module>\n'
        '    import requests\n  File "/home/ana/work/requests.py", line 3, in <module>\n'
        "    requests.get(url)\nAttributeError: module 'requests' has no attribute 'get'",
        "shadowed-module",
    ),
    ("ModuleNotFoundError: No module named 'scholarly.tools'; 'scholarly' is not a package", "shadowed-module"),
    # installing conda changed which python runs the program
    (
        "The tool worked until I installed miniconda. Since then: ModuleNotFoundError: No module named 'psutil'",
        "interpreter-mismatch",
    ),
    # jax's own check of the jaxlib beside it: one pair released in step
    (
        "RuntimeError: jaxlib is version 0.4.1, but this version of jax requires version >= 0.4.7.",
        "companion-mismatch",
    ),
    # NVIDIA's container entrypoint on a host driver too old for the image
    (
        "ERROR: This container was built for NVIDIA Driver Release 550.54 or later, but\n"
        "       version 525.85.12 was detected and compatibility mode is UNAVAILABLE.",
        "driver-too-old",
    ),
    # a wheel for exactly the Python named, refused on 64-bit Windows: a 32-bit interpreter
    (
        "I have Python 3.9.13 on Windows 10.\nERROR: somepkg-1.0-cp39-cp39-win_amd64.whl is not a supported "
        "wheel on this platform.",
        "python-32bit",
    ),
    # jaxlib's CUDA variants are not on PyPI
    (
        "ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.20+cuda12.cudnn89 "
        "(from versions: 0.4.20, 0.4.21)",
        "wrong-index-variant",
    ),
    # SIGILL on a 64-bit ARM board: a release built for another ARM core, not x86's AVX
    (
        "pip install -U numpy on my Jetson Nano (aarch64)\n>>> import numpy\nIllegal instruction (core dumped)",
        "known-bad-release",
    ),
    # CUDA.jl: a driver older than every toolkit it supports
    ("ERROR: CUDA driver 10.1.0 is not compatible with any supported CUDA toolkit (11.4.4, 12.0.1)", "driver-too-old"),
]


def test_a_cuda_library_of_one_release_and_another_release_installed() -> None:
    # libcublasLt.so.11 asked for, CUDA 12.0 installed: built for the other toolkit
    text = (
        "Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open "
        "shared object file: No such file or directory\nI updated to CUDA 12.0 last week."
    )
    assert "cuda-toolkit-mismatch" in shown_slugs(text)[:2]


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # a CUDA torch the extension was not built for is not a CPU-only build
    ("xFormers was built for:\n    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.3.0+cu121)", "cpu-only-build"),
    # torch's own _C, imported from its source tree, is not a package's op never built
    (
        '  File "/home/u/src/pytorch/torch/__init__.py", line 55, in <module>\n'
        "    __all__ += [name for name in dir(_C)\nNameError: name '_C' is not defined",
        "extension-build-env",
    ),
    # the user says the Python is 64-bit: the wheel is for another Python
    (
        "python 3.10.11 64bit\nERROR: insightface-0.7.3-cp310-cp310-win_amd64.whl is not a supported wheel on "
        "this platform",
        "python-32bit",
    ),
    # one CUDA release throughout
    (
        "libcudart.so.12: cannot open shared object file: No such file or directory\nI installed CUDA 12.4",
        "cuda-toolkit-mismatch",
    ),
    # a file importing a different module
    (
        '  File "/home/ana/work/train.py", line 1, in <module>\n    import torch\n'
        "ModuleNotFoundError: No module named 'torch'",
        "shadowed-module",
    ),
    # an x86 machine's SIGILL stays the CPU's missing extension
    (
        "$ python -c 'import tensorflow'\nIllegal instruction (core dumped)\nmy old Xeon on Ubuntu x86_64",
        "known-bad-release",
    ),
]
