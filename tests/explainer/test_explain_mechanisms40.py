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
    # (a fresh-eyes review's) dyld names the build target on every line of an older macOS: a symbol
    # missing from Homebrew's openssl is that library's release
    ("dyld: Symbol not found: _SSLv2_client_method\n  Referenced from: /usr/local/lib/python2.7/lib-dynload/"
     "_ssl.so (which was built for Mac OS X 10.13)\n  Expected in: /usr/local/opt/openssl/lib/libssl.1.0.0.dylib",
     "known-bad-release"),
    # a CI job's own cached venv on the runner
    ("dyld[2345]: Library not loaded: /Users/runner/hostedtoolcache/Python/3.10.11/x64/lib/libpython3.10.dylib\n"
     "  Referenced from: <6C1A> /Users/runner/work/proj/proj/.venv/bin/python3.10", "known-bad-release"),
    # the HIP SDK's math libraries, not the driver's runtime
    ("The procedure entry point hipsparseSpMV_bufferSize could not be located in the dynamic link library "
     "C:\\venv\\torch\\lib\\hipsparse.dll", "driver-too-old"),
    # a syntax error in the user's own .pyx
    ("Cython.Compiler.Errors.CompileError: mymod/fast.pyx\nExpected ':', found 'NEWLINE'", "extension-build-env"),
    # a libtorch C++ program linked without its CUDA library
    ("terminate called after throwing an instance of 'c10::Error'\n  what():  Cannot initialize CUDA without "
     "ATen_cuda library.", "code-requires-cuda"),
    # a requirement stated, or asked about, with nothing against it
    ("mypkg requires Python 3.8 or newer.", "unsupported-python"),
    ("Does tensorflow 2.16 require python 3.9? The docs are unclear", "unsupported-python"),
    # NumPy 2 dropping a Python or a platform is no ABI break
    ("numpy 2 doesn't support 32-bit Python on Windows anymore, so pip builds it from source",
     "numpy-abi-mismatch"),
    ("numpy 2.0 does not support Python 3.8; pip picks 1.24.4", "numpy-abi-mismatch"),
    # tensorflow-metal's pairing with TensorFlow, not the architecture
    ("M1 MacBook with tensorflow-macos 2.12.0 and tensorflow-metal 1.1.0. Importing tensorflow kills the kernel "
     "in Jupyter. Without tensorflow-metal it imports fine.", "wrong-architecture"),
    # an NVIDIA card under WSL with a ROCm wheel: another index's build
    ("WSL2 Ubuntu, RTX 3060, installed torch from whl/rocm6.0 (the guide was for ROCm)\n"
     ">>> torch.cuda.is_available()\nFalse", "dll-version-conflict"),
]

HEALTHY: list[str] = []


def test_macos_12s_newer_than_running_os_names_the_release() -> None:
    """macOS 12 and later say it outright: the library was built for a newer macOS."""
    text = ("ImportError: dlopen(/v/_core.so, 0x0002): Symbol not found: (_foo)\n  Referenced from: "
            "'/v/.dylibs/libbar.dylib' (built for macOS 13.0 which is newer than running OS)")
    assert diagnose_text(text, words=False).shown[0].slug == "known-bad-release"
