"""Mechanism-level rules, twenty-eighth round (issue 14, item 2): written on generation 23's train
cases, its held-out cases after their one measurement (when they joined train), and generation
24's first train cases; each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a pre-AVX CPU named beside TensorFlow's native runtime failing to load
    ("Processor: Intel(R) Xeon(R) CPU E5620 @ 2.40GHz, Windows Server 2012\n"
     "ImportError: DLL load failed while importing _pywrap_tensorflow_internal", "cpu-instructions-unsupported"),
    # torch's JIT extension build failing, seen through its own frames before the last line
    ('  File "/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 2104, in '
     "_run_ninja_build\n    raise RuntimeError(message) from e", "extension-build-env"),
    # the ARM extension the core lacks, named by the user
    ("Our Cortex-A53 board does not have LSE atomics.\n$ python3 -c 'import torch'\n"
     "Illegal instruction (core dumped)", "cpu-instructions-unsupported"),
    # a program started without the driver's library (a container without the NVIDIA runtime)
    ("$ docker compose up\nworker-1  | ./server: error while loading shared libraries: libcuda.so.1: "
     "cannot open shared object file: No such file or directory", "gpu-build-without-gpu"),
    # a wheel linked for 4 KiB pages on a 64 KiB-page kernel
    ("OSError: /srv/venv/lib/python3.9/site-packages/numpy/core/_multiarray_umath.cpython-39-aarch64-linux-gnu.so: "
     "ELF load command alignment not page-aligned", "known-bad-release"),
    # PyPI's torch on a Jetson: no CUDA in it
    ("Jetson Xavier NX, JetPack 5.1\n>>> torch.__version__\n'2.1.0'\n>>> torch.cuda.is_available()\nFalse",
     "cpu-only-build"),
    # the framework imported first brought its cuDNN, the other finds it too old
    ("If torch is imported before tensorflow, tensorflow fails:\nLoaded runtime CuDNN library: 8.1.0 but source "
     "was compiled with: 8.6.0.", "import-order-conflict"),
    # Android's loader naming a symbol a library lacks
    ('ImportError: dlopen failed: cannot locate symbol "_ZN3foo3barEv" referenced by '
     '"/data/data/com.termux/files/usr/lib/python3.11/site-packages/foo/_core.so"...', "symbol-mismatch"),
    # pip's refusal retold without the wheel's name
    ("the download works but pip install gives the 'not a supported wheel on this platform' message",
     "unsupported-python"),
    # an import from a source tree: TensorFlow's words, and a checkout's package without its built part
    ("Error importing tensorflow.  Unless you are using bazel,\nyou should not try to import tensorflow from its "
     "source directory;", "shadowed-module"),
    ('  File "/home/u/src/mylib/mylib/__init__.py", line 3, in <module>\n    from mylib._ext import core\n'
     "ModuleNotFoundError: No module named 'mylib._ext'", "shadowed-module"),
    # torch 2.1.0 asking for the toolkit's libcuda.so on a driver-only machine
    ('RuntimeError: handle_0 INTERNAL ASSERT FAILED at "../c10/cuda/driver_api.cpp":15, please report a bug',
     "known-bad-release"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a CPU with AVX (Broadwell) beside the same failure
    ("Processor: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n"
     "ImportError: DLL load failed while importing _pywrap_tensorflow_internal", "cpu-instructions-unsupported"),
    # cpp_extension imported, failing on numpy: no build ran
    ('  File "/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py", line 25, in <module>\n'
     "ImportError: numpy.core.multiarray failed to import", "extension-build-env"),
    # a core that has LSE
    ("aarch64 server, a Neoverse N1 that supports LSE atomics, and still:\n$ python3 -c 'import torch'\n"
     "Illegal instruction (core dumped)", "cpu-instructions-unsupported"),
    # a program's own library missing, not the driver's
    ("./server: error while loading shared libraries: libonnxruntime.so.1.16.0: cannot open shared object file: "
     "No such file or directory", "gpu-build-without-gpu"),
    # a misaligned segment is a damaged file, not a release built for other pages
    ("ImportError: /app/lib/libfoo.so: ELF load command address/offset not properly aligned", "known-bad-release"),
    # NVIDIA's own build on the Jetson, CUDA there
    ("Jetson Orin, torch 2.1.0a0+41361538.nv23.06\n>>> torch.cuda.is_available()\nTrue", "cpu-only-build"),
    # the cuDNN mismatch without a word on the order
    ("Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.", "import-order-conflict"),
    # Android's loader missing a whole library, not a symbol
    ('ImportError: dlopen failed: library "libc++_shared.so" not found', "symbol-mismatch"),
    # an installed package without its built part: no source tree in the path
    ('  File "/usr/lib/python3/dist-packages/mylib/__init__.py", line 3, in <module>\n'
     "ModuleNotFoundError: No module named 'mylib._ext'", "shadowed-module"),
    # another assert of torch's CUDA code
    ('RuntimeError: handle_1 INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":1123',
     "known-bad-release"),
]

# words of success: no answer
HEALTHY = [
    "pip installed the wheel fine: it is a supported wheel on this platform",
    "Built the extension with torch.utils.cpp_extension.load in 40 s, no errors",
    "My Cortex-A76 has LSE atomics and torch 2.6 runs fine",
]


def test_a_cuda_7_to_9_library_beside_another_stated_release_is_two_majors() -> None:
    """CUDA 7.5, 8.0 and 9.x are read like 10 to 13: a library of one asked for, another named
    as installed (tensorflow/tensorflow#4664); one release alone is no difference."""
    from dldoctor.explainer.match import find_hits
    from dldoctor.explainer.signatures import load_signatures

    sigs = load_signatures()
    text = "ImportError: libcudart.so.7.5: cannot open shared object file\nos: ubuntu 16.04, cuda:8.0"
    assert "cuda-majors-differ" in find_hits(text, sigs)
    assert "cuda-majors-differ" in find_hits("cudart64_80.dll not found, CUDA 9.2 installed", sigs)
    assert "cuda-majors-differ" not in find_hits(text.replace("cuda:8.0", "cuda:7.5"), sigs)
