"""Mechanism-level rules, forty-first round (issue 14, item 2): written on generation 31's
held-out reports after their one measurement; each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # the system's library older than what an environment's library was linked against
    ("ImportError: /lib/x86_64-linux-gnu/libexpat.so.1: version `EXPAT_2.4.0' not found "
     "(required by /home/u/miniconda3/envs/geo/lib/libpython3.11.so.1.0)", "glibcxx-too-old"),
    # NumPy's ABI break in the user's words
    ("The notebook fails because some packages were compiled with NumPy 1.x and run under NumPy 2.x",
     "numpy-abi-mismatch"),
    # a JVM beside a 32-bit Python
    ("Python 3.6 win32 with a 64-bit JDK 11: jpype.startJVM() closes the interpreter", "python-32bit"),
    # a pre-release Python
    ("FROM python:3.13-rc-slim\nRUN pip install lightgbm\nERROR: Failed building wheel for lightgbm",
     "unsupported-python"),
    ("I'm on Python 3.12.0b4 and pip install scipy tries to build from source", "unsupported-python"),
    # the user names the toolkit and the framework as incompatible
    ("Probably an incompatibility between CUDA 12.4 and the installed paddlepaddle-gpu build.",
     "cuda-toolkit-mismatch"),
    # an old pip's refusal
    ("stderr: Usage: pip install [options] <requirement specifier>\nno such option: --prefer-binary",
     "unsupported-python"),
    # setuptools' pkg_resources missing on a new Python, known by its own warning
    ("C:\\app\\setup\\setup_windows.py:251: SyntaxWarning: invalid escape sequence '\\g'\n"
     '  File "C:\\app\\setup\\setup_common.py", line 8, in <module>\n    import pkg_resources\n'
     "ModuleNotFoundError: No module named 'pkg_resources'", "unsupported-python"),
    # a package's own library missing on ARM
    ("Running on an arm64 Ubuntu 22.04 server:\nOSError: /venv/lib/python3.10/site-packages/llmlib/lib/avx2/"
     "libllm.so: cannot open shared object file: No such file or directory", "wrong-architecture"),
    # dyld found a binary of another architecture
    ("ImportError: dlopen(/v/site-packages/fast/_fast.cpython-39-darwin.so, 2): no suitable image found.  Did find:",
     "wrong-architecture"),
    ("pip installs the wrong architecture (x86_64) of the wheel on my arm64 Mac", "wrong-architecture"),
    # a release without its generated version module
    ("pip install mytool==0.3.0\n>>> import mytool\nModuleNotFoundError: No module named 'mytool.version'",
     "known-bad-release"),
    # a frozen app whose bundle lacks a framework's DLL
    ("I built the exe with pyinstaller --onefile; on start it says\nOSError: [WinError 126] Error loading "
     '"C:\\Users\\u\\AppData\\Local\\Temp\\_MEI2\\torch\\lib\\shm.dll" or one of its dependencies.',
     "missing-shared-library"),
    # pip's download broken
    ("ERROR: Wheel 'tensorflow' located at /tmp/pip-unpack-x/tensorflow-2.15.0-cp311-cp311-manylinux.whl is invalid.",
     "corrupt-install"),
    # the framework pip pulled in is not the one the library works with
    ("pip install installed torch 2.1.0, which isn't compatible with the library: undefined operator error",
     "extension-abi-mismatch"),
    # a container without the host's driver
    ("Inside the docker container nvidia-smi prints: Failed to initialize NVML: Unknown Error",
     "gpu-build-without-gpu"),
]

NOT_CLAIMED = [
    # an environment's own library against another release of one in the same environment
    ("/opt/conda/lib/libonnxruntime.so.1: version `VERS_1.17.0' not found (required by "
     "/opt/conda/lib/libsherpa-onnx-c-api.so)", "glibcxx-too-old"),
    # the stock NumPy message is the older signature's; a pin that works is no break
    ("We pinned numpy<2 because the wheels are built with NumPy 1.26; it works", "numpy-abi-mismatch"),
    # Python's banner on win32 is every Windows Python's
    ("Python 3.11.4 (tags/v3.11.4, Jun  7 2023) [MSC v.1934 64 bit (AMD64)] on win32\n"
     "jpype._jexception.java.lang.ClassNotFoundException: org.foo.Bar", "python-32bit"),
    # a released Python
    ("FROM python:3.12-slim\nRUN pip install torch", "unsupported-python"),
    # a toolkit named compatible
    ("There is no incompatibility between CUDA 12.1 and this torch build; the error is elsewhere: "
     "ImportError: libGL.so.1", "cuda-toolkit-mismatch"),
    # torch's own library on ARM: not a package's x86-only bundle
    ("aarch64 Jetson\nOSError: /usr/local/lib/python3.8/dist-packages/torch/lib/libcudnn.so.8: cannot open shared "
     "object file", "wrong-architecture"),
    # a version module of torch from a source checkout
    ("ModuleNotFoundError: No module named 'torch.version'", "known-bad-release"),
    # a container with the host's driver, and NVML's own version mismatch
    ("docker run --gpus all ...\nFailed to initialize NVML: Driver/library version mismatch", "gpu-build-without-gpu"),
    # an invalid requirement, not an invalid wheel
    ("ERROR: Invalid requirement: 'torch==2.0.*,<' is invalid", "corrupt-install"),
    # (a fresh-eyes review) an option no pip accepts in a requirements file
    ("ERROR: Invalid requirement: --no-build-isolation -e git+https://github.com/x/y\n"
     "__main__.py: error: no such option: --no-build-isolation", "unsupported-python"),
    # dyld's other reasons: code signing
    ("ImportError: dlopen(/v/cv2.cpython-38-darwin.so, 2): no suitable image found.  Did find:\n"
     "\t/v/cv2.cpython-38-darwin.so: code signature in (/v/cv2.cpython-38-darwin.so) not valid for use in process",
     "wrong-architecture"),
    # a local packaging/ folder, a source checkout: shadowing, not a release
    ('  File "/home/u/project/packaging/__init__.py", line 1\n'
     "ModuleNotFoundError: No module named 'packaging.version'",
     "known-bad-release"),
    ('  File "/home/u/src/vision/torchvision/__init__.py", line 8\n'
     "ModuleNotFoundError: No module named 'torchvision.version'", "known-bad-release"),
    # torch's API called on numpy: the user's code, not a shadowed numpy
    ("AttributeError: module 'numpy' has no attribute 'randn'", "shadowed-module"),
    # a pre-release Python where the install worked
    ("Ubuntu 22.04, Python 3.11.0rc1 from the Ubuntu repos; pip install torch==2.0.1 installed fine, but "
     "torch.cuda.is_available() returns False", "unsupported-python"),
    # a 64-bit JVM and Python said so, a Spark log's 32-bit integer
    ("jpype._jvmfinder.JVMNotFoundException: No JVM shared library file (jvm.dll) found. Python 3.10.11 is 64-bit "
     "and the JDK is 64-bit too (not 32-bit).", "python-32bit"),
    ("The JVM is OpenJDK 17. The column is stored as a 32-bit integer and the job fails", "python-32bit"),
    # pip installing the freezer is no frozen app
    ("pip install pyinstaller\nSuccessfully installed pyinstaller-6.3.0\npython main.py\n"
     'OSError: [WinError 126] Error loading "C:\\v\\torch\\lib\\fbgemm.dll" or one of its dependencies.',
     "missing-shared-library"),
    # nvidia-smi's CUDA is the driver's maximum, and a question is no finding
    ("nvidia-smi shows CUDA Version: 12.4 but I installed torch 2.1.0+cu118. Is this mismatch between CUDA 12.4 "
     "and torch cu118 why torch.cuda.is_available() returns False?", "cuda-toolkit-mismatch"),
    ("### Is there an incompatibility between CUDA 12.6 and TensorFlow 2.17?", "cuda-toolkit-mismatch"),
    # a framework that does not fit the driver: not an extension's ABI
    ("pip installed torch 2.1.0, which isn't compatible with my CUDA 11.4 driver (470.xx)", "extension-abi-mismatch"),
    # wheels missing for a platform, not for the Python
    ("Python 3.10 wheels are not available for aarch64, only for x86_64 and Windows.\n"
     "ERROR: Could not find a version that satisfies the requirement foo (from versions: none)", "unsupported-python"),
    # a changelog of builds against both NumPys
    ("Wheels were built against NumPy 1.x until 0.6; starting with 0.7 they are built against NumPy 2.0 and run on "
     "both NumPy 1.x and 2.x.", "numpy-abi-mismatch"),
    # two CUDA installs mixed, not an old system library
    ("OSError: /usr/lib/x86_64-linux-gnu/libcublasLt.so.11: version `libcublasLt.so.11' not found (required by "
     "/v/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11)", "glibcxx-too-old"),
    # a README about containers, Jetson without nvidia-smi
    ("The image does not have an NVIDIA driver inside; the driver stays on the host and docker passes it in.",
     "gpu-build-without-gpu"),
    ("Jetson Orin, l4t-pytorch container:\nbash: nvidia-smi: command not found", "gpu-build-without-gpu"),
]

HEALTHY: list[str] = []


def test_a_core_torch_attribute_missing_is_no_companion() -> None:
    """Every torch release has torch.dtype: its absence is torch itself broken or shadowed, not a
    companion written for another release."""
    shown = [c.slug for c in diagnose_text("AttributeError: module 'torch' has no attribute 'dtype'",
                                           words=False).shown]
    assert "companion-mismatch" not in shown
    assert {"shadowed-module", "corrupt-install"} <= set(shown[:3])
