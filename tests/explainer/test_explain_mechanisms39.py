"""Mechanism-level rules, thirty-ninth round (issue 14, item 2): written on generation 30's
held-out cases after their one measurement; each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # Node's DLL-initialisation failure of a native addon under Electron: built for node.exe's ABI
    ("App threw an error during load\nError: A dynamic link library (DLL) initialization routine failed.\n"
     "\\\\?\\C:\\app\\node_modules\\usb\\build\\Release\\usb_bindings.node", "extension-abi-mismatch"),
    ("In my electron app, require('serialport') gives: Error: A dynamic link library (DLL) initialization "
     "routine failed.", "extension-abi-mismatch"),
    # an sdist whose setup.py reads a file the release left out
    ('  File "/tmp/pip-install-x1y2/toolz_9f/setup.py", line 12, in <module>\n'
     "    open('requirements.txt').read()\n"
     "FileNotFoundError: [Errno 2] No such file or directory: 'requirements.txt'", "known-bad-release"),
    # the user contrasts the failing release with an older one that works
    ("The crash started in 1.18.0. Last good build was 1.17.3.", "known-bad-release"),
    ("Version 3.2.1 fails with a segfault on start.\nVersion 3.1.0 works fine.", "known-bad-release"),
    # cupy 7.1.0's missing module, by its mark
    ("ModuleNotFoundError: No module named 'cupy.core._reduction'", "known-bad-release"),
    # torch's extension builder and an arch list it does not know
    ("TORCH_CUDA_ARCH_LIST=\"7.5 8.0 9.0\" pip install .\nValueError: Unknown CUDA arch (9.0) or GPU not supported",
     "extension-build-env"),
    ("ValueError: Unknown CUDA arch (8.9) or GPU not supported", "gpu-arch-unsupported"),
    # MSVC cannot link the Python's import library
    ("LINK : fatal error LNK1104: cannot open file 'python311.lib'", "extension-build-env"),
    # Chainer without CuPy
    ("    xp = cuda.cupy\nAttributeError: module 'chainer.backends.cuda' has no attribute 'cupy'", "cpu-only-build"),
    # the GPU sits idle
    ("dlib sees one CUDA device but when I run the batch example the GPU does nothing and the CPU is at 100%",
     "cpu-only-build"),
    # a framework's C library named with its version by macOS's linker
    ("ld: library 'onnxruntime.1.16.3' not found\nclang: error: linker command failed with exit code 1",
     "missing-shared-library"),
    # a library missing in the user's words
    ("The service dies with UnsatisfiedLinkError due to missing libgomp.so.1 on the slim image",
     "missing-shared-library"),
    # Node's code for an addon that did not load
    ("Error: The specified module could not be found.\n\\\\?\\C:\\x\\tfjs_binding.node\n  code: 'ERR_DLOPEN_FAILED'",
     "missing-shared-library"),
    # the package does not install on this Python, in the user's words
    ("pip install mytool does not work on Python 3.13", "unsupported-python"),
    # an f-string's `=` under Python 3.7, and a wheel for another Python's DLL
    ('  File "<fstring>", line 1\n    (self.lr=)\n    ^\nSyntaxError: invalid syntax', "unsupported-python"),
    ("ImportError: Module use of python39.dll conflicts with this version of Python.", "unsupported-python"),
    # no build for a 64-bit ARM machine, in the user's words
    ("pip3 install mediapipe fails: there is no aarch64 wheel available", "wrong-architecture"),
    # StyleGAN2's JIT-built op not importable
    ("ModuleNotFoundError: No module named 'upfirdn2d'", "extension-build-env"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # Python's WinError 1114 of a torch DLL inside an Electron launcher: not a Node addon
    ("ComfyUI Desktop (electron) log:\nOSError: [WinError 1114] A dynamic link library (DLL) initialization routine "
     'failed. Error loading "C:\\ComfyUI\\.venv\\Lib\\site-packages\\torch\\lib\\c10.dll"', "extension-abi-mismatch"),
    # a checkout of the user's own lacking its requirements file
    ('  File "/home/u/src/mytool/setup.py", line 12, in <module>\n'
     "FileNotFoundError: [Errno 2] No such file or directory: 'requirements.txt'", "known-bad-release"),
    # two Pythons compared, not two releases of the package
    ("python 3.10 works fine, python 3.12 fails with the same error", "known-bad-release"),
    # a Python that works, said so
    ("It does work on Python 3.11 now after the update.", "unsupported-python"),
    # aarch64 support present
    ("aarch64 wheels are available since 0.10.9, pip picked one: mediapipe-0.10.9-cp310-manylinux_2_17_aarch64.whl",
     "wrong-architecture"),
    # a module of the user's named fused_ops
    ("ModuleNotFoundError: No module named 'fused_ops'", "extension-build-env"),
]

HEALTHY: list[str] = []


def test_a_cupy_without_the_release_named_is_no_proof() -> None:
    """cupy 7.1.0's entry is counted from its mark, but a cupy whose module another way is missing
    (a damaged install naming cupy.core.core) is not the release's."""
    report = diagnose_text("ModuleNotFoundError: No module named 'cupy.core.core'", words=False)
    assert all(c.slug != "known-bad-release" for c in report.shown[:1])


def test_a_library_said_present_is_no_missing_library_in_words() -> None:
    """The user's words read a library as missing only where they say so ("due to missing X",
    "missing X file"), not where they deny it."""
    report = diagnose_text("libgomp.so.1 is not missing, ldconfig lists it; the error is CUDA out of memory",
                           words=False)
    assert all(h.signature != "user-says-library-missing" for c in report.candidates for h in c.hits)

# (after the fresh-eyes review) more wordings the rules must read, and look-alikes they must not claim
REVIEW_CASES = [
    ("The error appeared in 0.15.0; 0.14.1 is fine.", "known-bad-release"),
    ("the import fails because libgomp.so.1 is missing", "missing-shared-library"),
    ("tensorflow imports fine in my shell but when I run sudo pip install horovod it says\n"
     "ImportError: libcublas.so.9.0: cannot open shared object file", "extension-build-env"),
    ("Uncaught Error: A dynamic link library (DLL) initialization routine failed.\n"
     "\\\\?\\C:\\a\\node_modules\\robotjs\\build\\Release\\robotjs.node", "extension-abi-mismatch"),
    ("mediapipe has no wheels for aarch64", "wrong-architecture"),
    ("Please compile with `-DSHERPA_ONNX_ENABLE_GPU=ON`", "cpu-only-build"),
    ("LINK : fatal error LNK1104: 无法打开文件“python310.lib”", "extension-build-env"),
    ("FAILED: build/ext.obj \r\nninja: build stopped", "extension-build-env"),
    ("ModuleNotFoundError: No module named 'op.fused_act'", "extension-build-env"),
    ("pip install foo is not compatible with Python 3.13", "unsupported-python"),
]
CASES += REVIEW_CASES

NOT_CLAIMED += [
    # versions of CUDA, Python or the driver, not of the package
    ("CUDA version 12.1 fails, version 11.8 works fine", "known-bad-release"),
    ("The problem started with version 3.12.1 of Python, the package itself is unchanged.", "known-bad-release"),
    ("Driver version 555.42 gives this error, driver version 550.54 works fine.\n"
     "RuntimeError: CUDA error: unspecified launch failure", "known-bad-release"),
    # WSL keeps libcuda.so.1 in its own folder: a path, not a missing driver
    ("On WSL2, libcuda.so.1 is not found in /usr/lib/x86_64-linux-gnu because it lives in /usr/lib/wsl/lib",
     "gpu-build-without-gpu"),
    # a checkout of the user's, fetched by pip from git
    ("Cloning https://github.com/me/mylib to /tmp/pip-req-build-zz9\n"
     '  File "/tmp/pip-req-build-zz9/setup.py", line 5, in <module>\n'
     "FileNotFoundError: [Errno 2] No such file or directory: 'requirements.txt'", "known-bad-release"),
    # an install of a toolkit or a companion, not a package's build
    ("Works fine in python but when I install the new CUDA 12 toolkit everything breaks:\n"
     "libcudart.so.11.0: cannot open shared object file", "extension-build-env"),
    ("import torch works fine in python but when I install torchvision:\n"
     "DLL load failed while importing _C: The specified procedure could not be found.", "extension-build-env"),
    # torch's warning that the list is NOT set: a GPU newer than the torch
    ("UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included\n"
     "ValueError: Unknown CUDA arch (12.0) or GPU not supported", "extension-build-env"),
    # a package named fused, not installed
    (">>> import fused\nModuleNotFoundError: No module named 'fused'", "extension-build-env"),
    # an N-API addon (stable across Node and Electron) failing its DLL initialisation
    ("node index.js\nError: A dynamic link library (DLL) initialization routine failed.\n"
     "\\\\?\\C:\\a\\node_modules\\@tensorflow\\tfjs-node\\lib\\napi-v8\\tfjs_binding.node", "extension-abi-mismatch"),
    # the same Python works elsewhere; the Python ruled out
    ("why does it not run on python 3.11 on my laptop but works on python 3.11 on my desktop?", "unsupported-python"),
    ("It does not work on Python 3.8 either, and 3.10 works, so it is not the Python version", "unsupported-python"),
    # the architecture already dealt with
    ("I'm on an M1 Mac; arm64 is not supported by plain tensorflow 2.4 so I installed tensorflow-macos 2.12.\n"
     "ImportError: cannot import name 'keras'", "wrong-architecture"),
    # a prebuilt binary without AVX2, an AVX-512 grep
    ("AVX2 is not supported in the prebuilt binary, so I compiled from source", "cpu-instructions-unsupported"),
    # the user's own build step, not the library's message
    ("I followed the README: cmake .. && compile with -DWITH_GPU=ON\nCMake Error: Could not find CUDA toolkit",
     "cpu-only-build"),
    # a setting that did nothing, on a GPU that works
    ("Setting CUDA_VISIBLE_DEVICES=1 for the second gpu did nothing, it still uses gpu 0\n"
     "RuntimeError: CUDA out of memory", "cpu-only-build"),
    # another cupy release named: not 7.1.0's
    ("cupy-cuda12x 13.0.0\nModuleNotFoundError: No module named 'cupy.core._reduction'", "known-bad-release"),
    # the order denied
    ("The order of torch and tensorflow imports doesn't matter here, both orders fail", "import-order-conflict"),
]


def test_a_standard_module_first_is_no_import_order() -> None:
    """The standard library loads no libstdc++: `import os` before the failing import is no order."""
    text = ("import os\nimport torch\nImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found "
            "(required by /e/lib/python3.9/site-packages/torch/_C.so)")
    assert "import-order-conflict" not in [c.slug for c in diagnose_text(text, words=False).shown]


def test_an_avx512_grep_is_not_the_users_no_avx() -> None:
    report = diagnose_text("grep avx512 /proc/cpuinfo returns nothing (i7-8700, it has avx2).", words=False)
    assert all(h.signature != "user-says-no-avx" for c in report.candidates for h in c.hits)


def test_a_denied_missing_library_is_not_read() -> None:
    report = diagnose_text("The error is not due to missing libgomp.so.1 - I checked it's there", words=False)
    assert all(h.signature != "user-says-library-missing" for c in report.candidates for h in c.hits)
