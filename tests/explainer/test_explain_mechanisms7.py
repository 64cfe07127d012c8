"""Mechanism-level rules, seventh round (issue 14, item 2): the wrong assumptions generation 5's
held-out cases showed once they were used up, each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # TensorFlow's Windows wheels need AVX; without it the DLL's initialisation fails
    (
        '  File "C:\\py\\lib\\site-packages\\tensorflow\\python\\pywrap_tensorflow.py", line 58, in <module>\n'
        "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: A dynamic link library (DLL) "
        "initialization routine failed.",
        "cpu-instructions-unsupported",
    ),
    # onnxruntime found CUDA_PATH but not the CUDA/cuDNN DLLs it was built for: most often another
    # CUDA release is installed (4 of 6 corpus cases by generation 16; round 21 reweighted it)
    (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1862] CUDA_PATH is set but CUDA wasnt able to be loaded. "
        "Please install the correct version of CUDA and cuDNN",
        "cuda-toolkit-mismatch",
    ),
    # a glibc private symbol: the wheel runs only on the glibc it was built against
    (
        "ImportError: /opt/venv/lib/python3.10/site-packages/fastlib/_core.so: undefined symbol: _dl_sym, "
        "version GLIBC_PRIVATE",
        "known-bad-release",
    ),
    # a GLIBCXX error cut before "not found" (an issue title)
    ("conda/envs/ocr/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.32'", "glibcxx-too-old"),
    # Paddle's AVX core exists and cannot be imported: a dependency of it is missing
    (
        "Error: Can not import avx core while this file exists: /env/lib/python3.9/site-packages/paddle/fluid/"
        "core_avx.so",
        "missing-shared-library",
    ),
    # Paddle's own comparison of the CUDA (cuDNN) it was built with and the machine's
    (
        "W0101 paddle/phi/backends/gpu/gpu_resources.cc:96] The installed Paddle is compiled with CUDA 11.8, "
        "but CUDA version in your machine is 12.0, which may cause serious incompatible bug.",
        "cuda-toolkit-mismatch",
    ),
    (
        "Mismatched GPU Architecture: your current GPU is 120 Solution: Install the correct wheel package built "
        "for your GPU",
        "gpu-arch-unsupported",
    ),
    # NVRTC without the builtins of its own CUDA release
    (
        "RuntimeError: nvrtc: error: failed to open nvrtc-builtins64_118.dll.\n  Make sure that "
        "nvrtc-builtins64_118.dll is installed correctly.",
        "cuda-toolkit-mismatch",
    ),
    # the generations the current builds dropped, and the newest, in the user's words
    ("torch 2.9 cu130 is not compatible with my GTX 1060 (Pascal), kernels fail", "gpu-arch-unsupported"),
    ("paddlepaddle-gpu 3.0 does not work on my new RTX 5090", "gpu-arch-unsupported"),
    # installed, and still not importable, in Chinese: another interpreter's pip
    (
        "已经安装了 transformers，但是还是报错\nModuleNotFoundError: No module named 'transformers'",
        "interpreter-mismatch",
    ),
    # without DataLoader workers it runs (Windows: spawn re-imports the script)
    (
        "On Windows the training crashes at the first batch. After removing num_workers=4 it works.",
        "multiprocessing-main-guard",
    ),
    # the build is CPU-only whatever the call site: .cuda() is where every such report fails
    (
        '  File "train.py", line 12, in <module>\n    model = model.cuda()\n'
        '  File "/env/lib/python3.11/site-packages/torch/cuda/__init__.py", line 310, in _lazy_init\n'
        '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
        "AssertionError: Torch not compiled with CUDA enabled",
        "cpu-only-build",
    ),
    # pip's line, wrapped by the terminal before "platform"
    ("ERROR: torch-1.0.0-cp35-cp35m-win_amd64.whl is not a supported wheel on this p\nlatform.", "unsupported-python"),
]


def test_a_companions_own_extension_without_its_cuda_library() -> None:
    # torchvision's _C asks for the CUDA runtime of the torch it was built for
    text = (
        '  File "/env/lib/python3.8/site-packages/torchvision/ops/boxes.py", line 2, in <module>\n'
        "    from torchvision import _C\n"
        "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory"
    )
    assert "companion-mismatch" in shown_slugs(text)[:2]


def test_insufficient_driver_in_a_container_also_names_the_driver_not_passed_in() -> None:
    text = (
        "faster-whisper in docker on my server:\n"
        "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version"
    )
    assert shown_slugs(text)[:2] == ["driver-too-old", "gpu-build-without-gpu"]


def test_pip_finding_no_version_names_a_32_bit_python_when_the_machine_has_one() -> None:
    text = "ERROR: couldnot find a version that satisfies the requirement tensorflow"
    assert shown_slugs(text, python_bits="32")[0] == "python-32bit"
    assert "python-32bit" not in shown_slugs(text, python_bits="64")


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # torch's own DLL initialisation failing is not TensorFlow's AVX
    (
        "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "
        '"C:\\py\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
        "cpu-instructions-unsupported",
    ),
    # more workers is not fewer workers
    ("Setting num_workers=8 it runs twice as fast on Linux", "multiprocessing-main-guard"),
    # installed CUDA and a CUDA error: not a module another interpreter lacks
    (
        "已经安装了CUDA 12.1，但是还是报错\nRuntimeError: CUDA driver version is insufficient for CUDA runtime version",
        "interpreter-mismatch",
    ),
    # an old GPU named in passing, a build that supports it
    ("My GTX 1080 (Pascal) runs torch 2.7 cu118 fine, but the dataloader hangs", "gpu-arch-unsupported"),
    # a symbol of glibc's public ABI is an older system, not a broken release
    (
        "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by "
        "/env/lib/python3.10/site-packages/fastlib/_core.so)",
        "known-bad-release",
    ),
]
