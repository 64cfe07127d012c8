"""Mechanism-level rules, sixth round (issue 14, item 2): a CPU without the instructions a wheel
uses, and the wrong assumptions generation 5's train half showed, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # the frameworks that check the CPU first say so, in their own words
    ("2026-01-02 10:00:00.1: F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library "
     "was compiled to use AVX instructions, but these aren't available on your machine.\nAborted (core dumped)",
     "cpu-instructions-unsupported"),
    ("RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU and/or operating "
     "system do not support. You may be able work around this issue by building jaxlib from source.",
     "cpu-instructions-unsupported"),
    ("Error: Your machine doesn't support AVX, but the installed PaddlePaddle is avx core, you should "
     "reinstall paddlepaddle with no-avx core.", "cpu-instructions-unsupported"),
    # the others die with SIGILL: the shell's words, Windows' exit code
    ("$ python -c 'import paddle'\nIllegal instruction (core dumped)", "cpu-instructions-unsupported"),
    ("Process finished with exit code -1073741795 (0xC000001D)", "cpu-instructions-unsupported"),
    # Paddle imports its no-AVX core only on a CPU without AVX
    ("ModuleNotFoundError: No module named 'paddle.fluid.core_noavx'", "cpu-instructions-unsupported"),
    ("我的旧电脑不支持AVX，import paddle 直接退出", "cpu-instructions-unsupported"),
    ("my Celeron does not support AVX and tensorflow exits at import", "cpu-instructions-unsupported"),
    # NumPy's struct-size check on any of its types, in Cython's old words too
    ("ValueError: numpy.ndarray size changed, may indicate binary incompatibility. Expected 96 from C header, "
     "got 88 from PyObject", "numpy-abi-mismatch"),
    ("ValueError: numpy.ufunc has the wrong size, try recompiling. Expected 192, got 216", "numpy-abi-mismatch"),
    # ROCm's words for a GPU target the build has no code for
    ("RuntimeError: HIP error: invalid device function\nHIP kernel errors might be asynchronously reported",
     "gpu-arch-unsupported"),
    ("My RTX 5080 is not supported by the installed build, it says the GPU is not in the list",
     "gpu-arch-unsupported"),
    # macOS's undefined symbol in an arm64 process
    ("ImportError: dlopen(/venv/lib/python3.10/site-packages/geo/_ext.cpython-310-darwin.so, 0x0002): "
     "symbol not found in flat namespace '_geo_encode'", "wrong-architecture"),
    # a name missing from an installed dependency: the importer was written for another release
    ("ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
     "(/env/lib/python3.10/site-packages/huggingface_hub/__init__.py)", "requirement-conflict"),
    # a loader that tried every name of the driver library
    ("thread 'main' panicked at src/lib.rs:9:5:\nUnable to find cuda lib under the names [\"cuda\", \"nvcuda\"].",
     "missing-shared-library"),
    # a CUDA build where the user has no GPU, or a non-NVIDIA one
    ("I don't have a GPU, why does it ask for CUDA?\nCuda Error: CUDA driver version is insufficient "
     "for CUDA runtime version", "gpu-build-without-gpu"),
    ("RuntimeError: Found no NVIDIA driver on your system.\nI use an AMD Radeon RX 6800", "code-requires-cuda"),
]


def test_tensorflows_loader_names_the_cuda_release_it_was_built_for() -> None:
    # cudart64_100.dll is CUDA 10.0: missing, or another toolkit installed; both are named
    text = ("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
            "'cudart64_100.dll'; dlerror: cudart64_100.dll not found")
    assert shown_slugs(text)[:2] == ["missing-shared-library", "cuda-toolkit-mismatch"]


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # TensorFlow's benign notes on every healthy machine: the binary could use more, not less
    ("I tensorflow/core/platform/cpu_feature_guard.cc:142] Your CPU supports instructions that this "
     "TensorFlow binary was not compiled to use: AVX2 FMA", "cpu-instructions-unsupported"),
    ("This TensorFlow binary is optimized to use available CPU instructions in performance-critical "
     "operations.\nTo enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild "
     "TensorFlow with the appropriate compiler flags.", "cpu-instructions-unsupported"),
    # Paddle's hint on a CPU WITH AVX and a no-AVX build
    ("Hint: Your machine support AVX, but the installed paddlepaddle doesn't have avx core. Hence, no-avx "
     "core with worse performance will be imported.", "cpu-instructions-unsupported"),
    # zsh's words on an Apple-silicon Mac: Rosetta, an x86_64 Python (the Mac named: zsh says the
    # same on a PC without AVX, and the corpus's texts that name no Mac are that, 6 of 6)
    ("On my M1 MacBook: zsh: illegal hardware instruction  python -c 'import tensorflow'",
     "cpu-instructions-unsupported"),
    # another package's struct (not NumPy's)
    ("ValueError: pandas._libs.interval.IntervalMixin size changed, may indicate binary incompatibility",
     "numpy-abi-mismatch"),
    # a half-imported module, and the user's own file: not an installed dependency's release
    ("ImportError: cannot import name 'core_avx' from partially initialized module 'paddle.fluid'",
     "requirement-conflict"),
    ("ImportError: cannot import name 'Model' from 'model' (/home/ana/project/model.py)", "requirement-conflict"),
    # a GPU the build supports
    ("RTX 5080 works fine with torch 2.9 cu128 but training is slow", "gpu-arch-unsupported"),
]
