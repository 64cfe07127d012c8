"""Mechanism-level rules, thirty-fourth round (issue 14, item 2): written on generation 27's
held-out cases after their one measurement, and on its later train cases; each with a text of
our own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

from .ranked import assert_named_first

# (text, the cause the mechanism implies first)
CASES = [
    # jax and jaxlib are one build in two wheels: a pair of another release is a companion's
    ("RuntimeError: jaxlib version 0.4.28 is newer than and incompatible with jax version 0.4.20. Please "
     "update your jax and/or jaxlib packages.", "companion-mismatch"),
    # an Apple-silicon Mac and the signal's name: an x86_64 build under Rosetta
    ("On my M2 MacBook Air the interpreter dies with SIGILL as soon as I import the package.",
     "wrong-architecture"),
    ("Apple silicon, macOS 14.\n$ python -c 'import tensorflow'\nIllegal instruction", "wrong-architecture"),
    # a GPU of compute capability below 5.0 named, no other clue
    ("OCR does not start. Windows 10, video card GeForce GT 730, CUDA 12.2 installed.", "gpu-arch-unsupported"),
    ("Training never uses the gpu (gtx 680), what am I missing?", "gpu-arch-unsupported"),
    ("nvidia-smi shows a Tesla K80 but the model does not use it", "gpu-arch-unsupported"),
    ("Tesla K20Xm, torch.cuda.is_available() returns False", "gpu-arch-unsupported"),
    ("Laptop with a GeForce GT 750M: torch says the GPU is not supported", "gpu-arch-unsupported"),
    # a binding links the framework's C library, which is not installed
    ("$ go build ./...\nld: library not found for -ltensorflow\nclang: error: linker command failed with exit "
     "code 1 (use -v to see invocation)", "missing-shared-library"),
    ("/usr/bin/ld: cannot find -lonnxruntime: No such file or directory\ncollect2: error: ld returned 1 exit status",
     "missing-shared-library"),
    ("ld: library 'tensorflow' not found\nclang: error: linker command failed with exit code 1",
     "missing-shared-library"),
    ("ld.lld: error: unable to find library -ltensorflow", "missing-shared-library"),
    # Python 3.9's typing evaluated by an older Python
    ("  File \"/usr/local/lib/python3.7/dist-packages/fedlib/core/types.py\", line 30, in <module>\n"
     "TypeError: Callable[[arg, ...], result]: each arg must be a type. Got Ellipsis.", "unsupported-python"),
    # two onnxruntime distributions in one environment
    ("Packages:\n- onnxruntime-training==1.16.3\n- onnxruntime==1.16.3\nImportError: cannot import name "
     "'get_all_providers' from 'onnxruntime.capi._pybind_state'", "duplicate-install"),
    # another package's extension wants a symbol from torch's own library
    ("ImportError: dlopen(/opt/venv/lib/python3.11/site-packages/fastops/_ops.so, 0x0002): Symbol not found: "
     "__ZN3c1015SmallVectorBaseIjE8grow_podEPKvmm\n  Referenced from: <0A1B> "
     "/opt/venv/lib/python3.11/site-packages/fastops/_ops.so\n  Expected in:     <9C8D> "
     "/opt/venv/lib/python3.11/site-packages/torch/lib/libc10.dylib", "extension-abi-mismatch"),
    # a triton of another release than torch's
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nImportError: cannot import name "
     "'AttrsDescriptor' from 'triton.backends.compiler' (C:\\AI\\venv\\Lib\\site-packages\\triton\\backends\\"
     "compiler.py)", "companion-mismatch"),
    # a release table entry: jax 0.2.15 calls a routine a CUDA jaxlib may lack
    ("jax 0.2.15, jaxlib 0.1.68+cuda110\n>>> import jax\nAttributeError: module 'jaxlib.cusparse' has no attribute "
     "'gtsv2'", "known-bad-release"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # SIGILL with no Mac named, and a Mac that is explicitly not Apple silicon
    ("The interpreter dies with SIGILL as soon as I import the package. Ubuntu 22.04 on a Xeon E5-2670.",
     "wrong-architecture"),
    ("Not an M1 issue: the same SIGILL on our Linux build server (Xeon E5-2670).", "wrong-architecture"),
    # Maxwell and later cards are supported: a GTX 750 Ti, a GTX 745, a Quadro K620, a GTX 1060
    ("OCR does not start. Windows 10, video card GeForce GTX 750 Ti, CUDA 12.2 installed.", "gpu-arch-unsupported"),
    ("OCR does not start. Windows 10, video card GeForce GTX 745, CUDA 12.2 installed.", "gpu-arch-unsupported"),
    ("OCR does not start. Windows 10, video card Quadro K620, CUDA 12.2 installed.", "gpu-arch-unsupported"),
    ("OCR does not start. Windows 10, video card GTX 1060, CUDA 12.2 installed.", "gpu-arch-unsupported"),
    # a build that cannot link an ordinary system library lacks its dev package: the build environment
    ("/usr/bin/ld: cannot find -lpng: No such file or directory\ncollect2: error: ld returned 1 exit status",
     "missing-shared-library"),
    # the Triton Inference Server's client is no triton release
    ("ImportError: cannot import name 'InferenceServerClient' from 'tritonclient.grpc'", "companion-mismatch"),
    # torch's companion referenced: a companion pair, not another package's extension
    ("ImportError: dlopen(/opt/venv/lib/python3.11/site-packages/torchaudio/lib/libtorchaudio.so, 0x0002): Symbol "
     "not found: __ZN3c1015SmallVectorBaseIjE8grow_podEPKvmm\n  Referenced from: <0A1B> "
     "/opt/venv/lib/python3.11/site-packages/torchaudio/lib/libtorchaudio.so\n  Expected in:     <9C8D> "
     "/opt/venv/lib/python3.11/site-packages/torch/lib/libc10.dylib", "extension-abi-mismatch"),
]

NOT_CLAIMED += [
    # a bare M1-M5 is not a Mac: an SSD's form factor, an AWS instance type
    ("Ubuntu 22.04, Samsung 980 M2 SSD, Xeon E5-2670\n$ python -c 'import tensorflow'\n"
     "Illegal instruction (core dumped)", "wrong-architecture"),
    ("AWS M5 instance (Intel Xeon Platinum 8175M), Amazon Linux 2\nIllegal instruction (core dumped)",
     "wrong-architecture"),
    # an old card in a spec line beside another error, or named in thanks
    ("ERROR: No matching distribution found for tensorflow==2.3\nSystem: Win10, i5, GTX 760, Python 3.9",
     "gpu-arch-unsupported"),
    ("GPU: NVIDIA GeForce GTX 770\nRuntimeError: CUDA error: out of memory", "gpu-arch-unsupported"),
    ("Solved: it wasn't the GTX 680, it was a missing VC++ redistributable.", "gpu-arch-unsupported"),
    ("Minimum requirements: GTX 660 or better. Error: ModuleNotFoundError: No module named 'cv2'",
     "gpu-arch-unsupported"),
    # libtorch is in torch's wheel: a build that cannot link it lacks a setting, not the library
    ("$ cmake --build build\n/usr/bin/ld: cannot find -ltorch: No such file or directory", "missing-shared-library"),
    # cuSPARSE's own routine names are not jax 0.2.15's call
    ("cupy/cuda/cusparse.cpp: error: identifier \"cusparseSgtsv2_nopivot\" is undefined\nerror: command 'gcc' failed",
     "known-bad-release"),
    # a triton.py of the user's own shadows the package
    ("ImportError: cannot import name 'triton' from 'triton' (/home/u/project/triton.py)", "companion-mismatch"),
]

HEALTHY = [
    "Thanks, it works on my GT 730 now with the older release.",
    "Works fine on my GTX 780, not an issue anymore after upgrading",
]


def test_the_routine_alone_is_a_lead_and_a_later_jax_is_not_that_release() -> None:
    """gtsv2 named without the release is a lead; with jax 0.2.17 named it is not this entry."""
    text = ">>> import jax\nAttributeError: module 'jaxlib.cusparse' has no attribute 'gtsv2'"
    assert_named_first(text, "known-bad-release")
    later = diagnose_text("jax 0.2.17\n" + text, words=False)
    assert all(c.slug != "known-bad-release" or c.confidence < 0.85 for c in later.shown)
