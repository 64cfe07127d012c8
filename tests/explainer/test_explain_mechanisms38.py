"""Mechanism-level rules, thirty-eighth round (issue 14, item 2): written on generation 30's
train cases before the held-out half was measured; each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # ninja's line for an object file that did not compile
    ("[3/5] /usr/local/cuda/bin/nvcc -c upfirdn2d_kernel.cu -o upfirdn2d_kernel.cuda.o\n"
     "FAILED: upfirdn2d_kernel.cuda.o\nninja: build stopped: subcommand failed.", "extension-build-env"),
    # the user's or a program's words: no AVX on this CPU
    ("error: avx not supported, the translator needs it", "cpu-instructions-unsupported"),
    ("`grep avx /proc/cpuinfo` returns nothing on my Pentium N3700", "cpu-instructions-unsupported"),
    # a library that says it was built without its GPU option
    ("Please compile with -DMYLIB_ENABLE_CUDA=ON. Available providers: CPUExecutionProvider\nFallback to cpu!",
     "cpu-only-build"),
    # libcuda.so.1 missing in the user's words: no driver where the run needs one
    ("Running the image in CPU mode it says it cannot find libcuda.so.1", "gpu-build-without-gpu"),
    ("容器里运行时报错：找不到libcuda.so.1", "gpu-build-without-gpu"),
    # the framework loads in the user's shell, its library fails only inside a package's install
    ("import tensorflow works fine in my terminal. But when I install horovod it fails:\n"
     "ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory",
     "extension-build-env"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # "FAILED:" inside a sentence, and a test's FAILED line, are no ninja compile step
    ("The unit test FAILED: build/obj/test_main.o was stale, I rebuilt it", "extension-build-env"),
    ("FAILED tests/test_ops.py::test_conv - AssertionError", "extension-build-env"),
    # a build that left AVX out, and AVX-512 (a warning, not a failure)
    ("AVX not supported by this build of the library; rebuild with -mavx", "cpu-instructions-unsupported"),
    ("AVX512 not supported, falling back to AVX2 kernels", "cpu-instructions-unsupported"),
    # a build option named as done
    ("I compiled with -DUSE_CUDA=ON yesterday and now: RuntimeError: CUDA out of memory", "cpu-only-build"),
    # libcuda.so.1 found
    ("ldconfig -p shows libcuda.so.1 is present, yet torch.cuda.is_available() is False after the upgrade",
     "gpu-build-without-gpu"),
]

HEALTHY: list[str] = []


def test_the_second_import_reading_sits_beside_the_libstdcxx_age() -> None:
    """A GLIBCXX symbol missing from the library of the second of two imports gets the order as a
    second reading; the libstdc++'s age stays first, and a library of a package not imported
    second gets no order reading."""
    second = ("ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
              "/env/lib/python3.9/site-packages/rdkit/rdBase.so)\nMy code:\nimport torch\nfrom rdkit import Chem")
    ranked = [c.slug for c in diagnose_text(second, words=False).shown]
    assert ranked[:2] == ["glibcxx-too-old", "import-order-conflict"], ranked
    other = ("ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
             "/env/lib/python3.9/site-packages/rdkit/rdBase.so)\nMy code:\nimport torch\nimport numpy")
    assert "import-order-conflict" not in [c.slug for c in diagnose_text(other, words=False).shown]
