"""Mechanism-level rules, ninth round (issue 14, item 2): the wrong assumptions generation 6's
held-out cases showed once they were measured and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # CUDA's own names for "no kernel image"
    ("RuntimeError: CUDA error: cudaErrorNoKernelImageForDevice on a Tesla K40", "gpu-arch-unsupported"),
    (
        "thread 'main' panicked: called `Result::unwrap()` on an `Err` value: Cuda(NoBinaryForGpu)",
        "gpu-arch-unsupported",
    ),
    # PTX newer than the driver can JIT
    (
        "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the provided PTX "
        "was compiled with an unsupported toolchain.",
        "driver-too-old",
    ),
    # a versioned symbol of a library that is not the C/C++ runtime
    (
        "myapp: /usr/lib/libprotobuf.so.32: version `PROTOBUF_4.25' not found (required by /usr/lib/libonnx.so)",
        "symbol-mismatch",
    ),
    # ONNX Runtime's C API older than the binding
    (
        "The given version [20] is not supported, only version 1 to 14 is supported in this build.",
        "dll-version-conflict",
    ),
    # an extension of another Python on the path
    ("ImportError: dynamic module does not define module export function (PyInit_rospy_ext)", "pythonpath-pollution"),
    # a library's import found the user's own file
    (
        'Traceback (most recent call last):\n  File "/srv/app/main.py", line 2, in <module>\n    import pandas\n'
        '  File "/srv/venv/lib/python3.11/site-packages/pandas/__init__.py", line 22, in <module>\n'
        "    import token\n"
        '  File "/srv/app/token.py", line 1, in <module>\n'
        "    SECRET = load()\nNameError: name 'load' is not defined",
        "shadowed-module",
    ),
    # the tool's Python and the user's differ
    (
        "ERROR: Package 'mytool' requires a different Python: 3.13.0 not in '<3.13,>=3.9'\n"
        "but I checked:\n> python --version\nPython 3.11.9",
        "interpreter-mismatch",
    ),
    # a plugin built for another framework release
    (
        "tensorflow.python.framework.errors_impl.NotFoundError: /home/u/venv/lib/python3.10/site-packages/"
        "tensorflow-plugins/libmetal_plugin.so not found",
        "extension-abi-mismatch",
    ),
    (
        "E0101 pjrt_c_api_helpers.cc:99] The plugin is likely built with a later version than the framework.",
        "extension-abi-mismatch",
    ),
    # a CUDA error where the only GPU is an Intel one
    (
        "CUDA driver version is insufficient for CUDA runtime version\nI have an Intel UHD Graphics 620 laptop",
        "code-requires-cuda",
    ),
    # another package's own _C on Windows
    (
        '  File "C:\\env\\lib\\site-packages\\mmcv\\ops\\nms.py", line 4, in <module>\n    from mmcv import _C\n'
        "ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
        "extension-abi-mismatch",
    ),
    # a program's loader, not an import
    (
        "./target/release/infer: error while loading shared libraries: libtorch_cpu.so: cannot open shared object "
        "file: No such file or directory",
        "missing-shared-library",
    ),
    # any pinned release pip does not have for this Python
    (
        "ERROR: Could not find a version that satisfies the requirement onnxruntime-directml==1.9.0 "
        "(from versions: 1.15.0, 1.15.1, 1.16.0)\n"
        "ERROR: No matching distribution found for onnxruntime-directml==1.9.0",
        "unsupported-python",
    ),
    # written on generation 7's first train cases (after the numbers before them were taken)
    # a program Windows could not start for a DLL
    (
        "error: process didn't exit successfully: `target\\debug\\app.exe` "
        "(exit code: 0xc0000135, STATUS_DLL_NOT_FOUND)",
        "missing-shared-library",
    ),
    # Apple's linker given a library of the other CPU
    (
        "ld: warning: ignoring file /opt/libtorch/lib/libc10.dylib, building for macOS-arm64 but attempting to link "
        "with file built for macOS-x86_64\nUndefined symbols for architecture arm64:",
        "wrong-architecture",
    ),
    # jax's CPU-only jaxlib
    (
        "WARNING: An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed.",
        "cpu-only-build",
    ),
    # a +cpu torch in a report that the GPU is not used
    ("System info: torch 2.3.1+cpu\nMy RTX 4070 sits idle, it is running on the CPU", "cpu-only-build"),
    # the web UI's CUDA check on an NVIDIA card
    (
        "RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to "
        "disable this check",
        "cpu-only-build",
    ),
    ("SM_120 error when starting the app on my new card", "gpu-arch-unsupported"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # the C++ runtime's own version tag stays glibcxx-too-old
    (
        "/usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by "
        "/opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so)",
        "symbol-mismatch",
    ),
    # a user's script importing its own helper module is no shadowing
    (
        'Traceback (most recent call last):\n  File "/home/u/proj/train.py", line 3, in <module>\n'
        "    import utils\n"
        '  File "/home/u/proj/utils.py", line 9, in <module>\n'
        "    raise ValueError('bad config')\nValueError: bad config",
        "shadowed-module",
    ),
    # one Python throughout
    (
        "ERROR: Package 'mytool' requires a different Python: 3.13.0 not in '<3.13,>=3.9'\n"
        "> python --version\nPython 3.13.0",
        "interpreter-mismatch",
    ),
    # torch's own _C failing is not another package's extension
    (
        '  File "C:\\env\\lib\\site-packages\\torch\\__init__.py", line 141, in <module>\n    from torch._C import *\n'
        "ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
        "extension-abi-mismatch",
    ),
    # an NVIDIA user with an Intel CPU keeps the driver answer
    (
        "CUDA driver version is insufficient for CUDA runtime version\nMy CPU is an Intel i7 and the GPU a GTX 1080",
        "code-requires-cuda",
    ),
    # a +cpu torch that fails to import is not a GPU complaint
    (
        "PyTorch Version: 1.5.0+cpu\nCUDA/cuDNN version: No\n"
        "FileNotFoundError: Could not find module 'C:\\py\\torch\\lib\\c10.dll' (or one of its dependencies)",
        "cpu-only-build",
    ),
]

HEALTHY = [
    "Successfully installed onnxruntime-1.18.0\n>>> import onnxruntime\n>>> onnxruntime.get_device()\n'CPU'",
]


def test_versions_of_one_python_are_not_two_interpreters() -> None:
    """Three spellings of one version (3.11, 3.11.4, 3.11.9) are one interpreter."""
    text = "ERROR: Package 'x' requires a different Python: 3.11.4 not in '>=3.12'\n$ python -V\nPython 3.11.9"
    assert "interpreter-mismatch" not in shown_slugs(text)[:1]
