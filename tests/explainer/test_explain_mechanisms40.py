"""Mechanism-level rules, fortieth round (issue 14, item 2): written on generation 31's train
reports before its held-out split was measured; each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # a dylib built for a newer macOS than the wheel's tag promises
    ("ImportError: dlopen(/v/lib/python3.9/site-packages/foo/_core.so, 2): Symbol not found: _aligned_alloc\n"
     "  Referenced from: /v/lib/python3.9/site-packages/foo/.dylibs/libbar.1.dylib "
     "(which was built for Mac OS X 10.15)\n"
     "  Expected in: /usr/lib/libSystem.B.dylib", "known-bad-release"),
    # an install name on the machine that built the wheel
    ("ImportError: dlopen(/v/lib/python3.10/site-packages/tok/_tok.cpython-310-darwin.so, 2): Library not loaded: "
     "/Users/runner/work/tok/tok/build/libtok.0.dylib", "known-bad-release"),
    # a HIP function the driver's runtime lacks
    ("The procedure entry point hipMemAdvise could not be located in the dynamic link library C:\\z\\nvcuda.dll",
     "driver-too-old"),
    # Cython refuses the sources
    ("      Error compiling Cython file:\n      ------------------------------------------------------------\n"
     "      cdef class Reader:\n      madmom/io/_io.pyx:12:4: undeclared name not builtin: long",
     "extension-build-env"),
    # torch 0.4's CUDA call without a CUDA library
    ("RuntimeError: Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
     "libraries", "code-requires-cuda"),
    # the user says which Python a package needs
    ("Installing fails: lapx requires python >= 3.9 but the image ships 3.8", "unsupported-python"),
    # no prebuilt wheel for this Python, in the user's words
    ("There is no prebuilt wheel for Python 3.13 yet, so pip tries to compile it and fails", "unsupported-python"),
    # NumPy 2 named as what broke the package
    ("After the upgrade, numpy 2.0 breaks pmdarima: it won't import at all.", "numpy-abi-mismatch"),
    ("This release does not support NumPy 2.0; importing it raises an error", "numpy-abi-mismatch"),
    # TensorFlow's import killing the kernel on Apple Silicon
    ("On my M2 Pro MacBook, importing tensorflow kills the jupyter kernel every time.", "wrong-architecture"),
    # ROCm under WSL 2 and a torch that does not see the GPU
    ("Windows 11 + WSL2, ROCm 6.4 installed, rocminfo shows gfx1100\n"
     "$ python3 -c 'import torch; print(torch.cuda.is_available())'\nFalse", "dll-version-conflict"),
    # TensorFlow's cuDNN message split over two lines
    ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 6021 \n"
     "(compatibility version 6000) but source was compiled with 7005", "cuda-toolkit-mismatch"),
]

NOT_CLAIMED = [
    # a library path of the user's own machine
    ("ImportError: dlopen(x.so, 2): Library not loaded: /Users/alice/miniconda3/lib/libpython3.9.dylib",
     "known-bad-release"),
    # another entry point than HIP's
    ("The procedure entry point cudnnGetVersion could not be located in the dynamic link library cudnn64_8.dll",
     "driver-too-old"),
    # "requires Python 3.8 or newer" with a newer one installed is no complaint
    ("The README says it requires Python 3.8 or newer and 3.11 is installed; the import error is about a DLL",
     "unsupported-python"),
    # pip's resolver naming numpy 2: a requirement conflict
    ("ERROR: pip's dependency resolver ... tensorflow 2.15.0 requires numpy<2.0.0, but you have numpy 2.0.0 which is "
     "incompatible.", "numpy-abi-mismatch"),
    # NumPy 2 working
    ("numpy 2.0 works with this release, the failure is elsewhere: ImportError: libGL.so.1", "numpy-abi-mismatch"),
    # ROCm on native Linux, not WSL
    ("Ubuntu 22.04, ROCm 6.0, RX 6800\n>>> torch.cuda.is_available()\nFalse", "dll-version-conflict"),
    # an M1 Mac where tensorflow imports fine and another package kills the kernel
    ("M1 MacBook: import tensorflow works; importing opencv kills the kernel", "wrong-architecture"),
]

HEALTHY: list[str] = []


def test_a_macos_build_target_without_a_missing_symbol_context_still_names_the_release() -> None:
    """dyld names the build target only in its own failure lines, so the phrase alone is enough:
    it is never printed for a library that loaded."""
    text = "Referenced from: /x/libfoo.dylib (which was built for macOS 12.0)"
    assert diagnose_text(text, words=False).shown[0].slug == "known-bad-release"
