"""Mechanism-level rules, sixteenth round (issue 14, item 2): written on generation 12's train
cases after their "before" numbers were taken, each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # SIGILL on an ARMv6 board
    ("pip install onnxruntime on my Pi Zero W worked, but python3 -c 'import onnxruntime' prints "
     "Illegal instruction", "cpu-instructions-unsupported"),
    ("Program received signal SIGILL, Illegal instruction.\nuname -m: armv6l", "cpu-instructions-unsupported"),
    # a framework's AVX check failing on a Mac: an x86 Python under Rosetta
    ("MacBook Air M2, conda env from an old Intel installer\nRuntimeError: This version of jaxlib was built "
     "using AVX instructions, which your CPU and/or operating system do not support.", "wrong-architecture"),
    ("The TensorFlow library was compiled to use AVX instructions, but these aren't available on your machine.\n"
     "Abort trap: 6\nmacOS 14.2 (Darwin 23.2.0)", "wrong-architecture"),
    # the kernel refusing a binary of another CPU
    ("standard_init_linux.go:228: exec user process caused: exec format error", "wrong-architecture"),
    ("OSError: [Errno 8] Exec format error: '/home/pi/venv/bin/ffmpeg'", "wrong-architecture"),
    # XGBoost on macOS without libomp
    ("xgboost.core.XGBoostError: XGBoost Library (libxgboost.dylib) could not be loaded.\nLikely causes:\n"
     "  * OpenMP runtime is not installed", "missing-shared-library"),
    # PyG's extensions built for another CUDA than torch's
    ("RuntimeError: Detected that PyTorch and torch_sparse were compiled with different CUDA versions. PyTorch "
     "has CUDA version 11.8 and torch_sparse has CUDA version 12.1.", "extension-abi-mismatch"),
    # Keras 3's module layout missing
    ("from keras.src.engine import data_adapter\nModuleNotFoundError: No module named 'keras.src.engine'",
     "companion-mismatch"),
    # onnxruntime without the GPU provider asked for
    ("[E:onnxruntime] TensorRT execution provider is not enabled in this build.", "cpu-only-build"),
    # torch's extension builder finding no CUDA runtime (the bare path of an image, as in
    # ThinkMatch#51; a versioned toolkit the user installed reads as the CPU build since round 37)
    ("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\nthen the training script stops",
     "gpu-build-without-gpu"),
    # Python 2 code run by Python 3, and a Python 2 library on PYTHONPATH
    ('  File "train_net.py", line 42\n    print "epoch", epoch\n          ^\n'
     "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?", "interpreter-mismatch"),
    ('  File "/opt/ros/melodic/lib/python2.7/dist-packages/roslib/packages.py", line 9\n'
     "    print 'usage'\n          ^\nSyntaxError: invalid syntax", "pythonpath-pollution"),
    # new syntax on an old Python
    ('  File "infer.py", line 12\n    print(f"loss {loss:.3f}")\n                           ^\n'
     "SyntaxError: invalid syntax", "unsupported-python"),
    ('  File "data.py", line 7\n    if (n := len(items)) > 10:\n           ^\nSyntaxError: invalid syntax',
     "unsupported-python"),
    # Maya's plugin loader with Windows' error 126
    ("// Error: Unable to dynamically load : D:/maya/plug-ins/exporter.mll\nThe specified module could not be "
     "found.", "missing-vc-runtime"),
    # a frozen app that only runs where it was built
    ("I built the tool with Nuitka; the .exe works here but crashes on other computers with an ImportError "
     "in onnxruntime", "missing-vc-runtime"),
    # a container without the GPU passed in
    ("docker run --rm -it myimage python -c 'import torch; print(torch.cuda.is_available())'\nFalse\n"
     "CUDA test failed", "gpu-build-without-gpu"),
    # bindings of other languages checking their native library
    ("Error: this tch version expects PyTorch 2.4.0, got 2.5.1, this check can be bypassed by setting the "
     "LIBTORCH_BYPASS_VERSION_CHECK environment variable", "companion-mismatch"),
    ("ort 2.0 is not compatible with the ONNX Runtime binary found at `onnxruntime.dll`; expected "
     "GetVersionString to return '1.20.x', but got '1.17.1'", "dll-version-conflict"),
    ("System.EntryPointNotFoundException: Unable to find an entry point named 'TF_DeleteTensor' in DLL "
     "'tensorflow'.", "symbol-mismatch"),
    ("Error: \\\\?\\C:\\app\\node_modules\\onnxruntime-node\\bin\\napi-v3\\win32\\x64\\onnxruntime_binding.node "
     "is not a valid Win32 application.", "wrong-architecture"),
    # one numpy type refused as another
    ("TypeError: argument 1 must be numpy.ndarray, not numpy.ndarray", "numpy-abi-mismatch"),
    # pip's refusal retold, the wheel apart
    ('pip says it "is not a supported wheel" for the file from the vendor page:\n'
     "tflite_runtime-2.5.0-cp39-cp39-linux_aarch64.whl", "unsupported-python"),
    # onnxruntime built for one cuDNN, the machine has another
    ("Jetson Orin with cuDNN 9.3\n[W:onnxruntime:Default] Failed to create CUDAExecutionProvider. Require cuDNN "
     "8.* and CUDA 12.*.", "cuda-toolkit-mismatch"),
    # Python 2's ImportError beside a user on Python 3
    ("I run everything with Python 3.8 in my catkin workspace:\nImportError: No module named ultralytics",
     "interpreter-mismatch"),
    # Caffe's CHECK form of CUDA's invalid device function (error 8)
    ("F0101 10:00:00.000 conv_layer.cu:28] Check failed: error == cudaSuccess (8 vs. 0)  invalid device function",
     "gpu-arch-unsupported"),
    # faiss's CPU build imported where GPU classes are wanted
    ("AttributeError: module 'faiss' has no attribute 'StandardGpuResources'", "cpu-only-build"),
    ("pip list: faiss-cpu 1.7.4, faiss-gpu 1.7.2\nAttributeError: module 'faiss' has no attribute "
     "'GpuIndexFlatL2'", "duplicate-install"),
    # a CUDA runtime DLL a GPU library loads itself, not found
    ("CuPy failed to load nvrtc64_120_0.dll: Could not load \"nvrtc64_120_0.dll\": The specified module could "
     "not be found.", "missing-shared-library"),
    # PyCUDA's driver module without CUDA's DLLs
    ("    import pycuda._driver as _drv\nImportError: DLL load failed while importing _driver: The specified "
     "module could not be found.", "missing-shared-library"),
    # Docker without the NVIDIA container toolkit
    ("docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
     "gpu-build-without-gpu"),
    ("docker: Error response from daemon: Unknown runtime specified nvidia.", "gpu-build-without-gpu"),
    # nvcc older than the GPU asked of it
    ("nvcc fatal   : Value 'sm_89' is not defined for option 'gpu-architecture'", "gpu-arch-unsupported"),
    # jax and jaxlib, mmcv and mmdet, the Hugging Face stack
    ("RuntimeError: jaxlib version 0.4.30 is newer than and incompatible with jax version 0.4.23. Please update "
     "your jax and/or jaxlib packages.", "companion-mismatch"),
    ("AssertionError: MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.2.0.",
     "companion-mismatch"),
    ("ImportError: cannot import name 'EncoderDecoderCache' from 'transformers'", "requirement-conflict"),
    # a wheel linked with an executable stack on a new glibc
    ("ImportError: libfoo-1a2b3c.so.1: cannot enable executable stack as shared object requires: Invalid "
     "argument", "known-bad-release"),
    # two Qt builds in one process: opencv-python's and PyQt5's
    ('qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "/opt/venv/lib/python3.10/site-packages/'
     'cv2/qt/plugins" even though it was found.', "dll-version-conflict"),
    # two OpenCV distributions in one folder
    ("ImportError: cannot import name '_registerMatType' from 'cv2.cv2' (/usr/lib/python3/cv2/cv2.so)",
     "duplicate-install"),
    # torchcodec without an FFmpeg it can load
    ("RuntimeError: Could not load libtorchcodec. Likely causes:\n  1. FFmpeg is not properly installed in your "
     "environment.", "missing-shared-library"),
    # torchvision's compiled ops beside another torch
    ("RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are "
     "incompatible, or if you had errors while compiling torchvision from source.", "companion-mismatch"),
    # a PyInstaller bundle's native module failing: its frames are relative, no shadowing
    ('  File "PyInstaller\\loader\\pyimod02_importers.py", line 457, in exec_module\n'
     '  File "onnxruntime\\capi\\_pybind_state.py", line 32, in <module>\nImportError', "missing-vc-runtime"),
    # the fresh-eyes review's variants of the same mechanisms
    ("ort 2.0.0-rc.9 is not compatible with the ONNX Runtime binary found at `libonnxruntime.so`; expected "
     "GetVersionString to return '1.20.x', but got '1.16.3'", "dll-version-conflict"),
    ("TypeError: Argument 'x' has incorrect type (expected numpy.ndarray, got numpy.ndarray)", "numpy-abi-mismatch"),
    ("uname -m\narmv6l\nzsh: illegal hardware instruction  python3 -c 'import grpc'", "cpu-instructions-unsupported"),
    ("[E:onnxruntime] DmlExecutionProvider is not enabled in this build.", "cpu-only-build"),
    ("ImportError: cannot import name \u2018EncoderDecoderCache\u2019 from \u2018transformers\u2019",
     "requirement-conflict"),
    # Qt's thread warning beside OpenCV
    ("import cv2\ncv2.imshow('frame', img)\nQObject::moveToThread: Current thread (0x55d1c0a0) is not the object's "
     "thread (0x55d1c3f0).\nSegmentation fault (core dumped)", "dll-version-conflict"),
    # a name missing from an installed package, its path wrapped onto the next line
    ("ImportError: cannot import name 'is_npu_available' from 'accelerate.utils' \n"
     "(/opt/conda/lib/python3.10/site-packages/accelerate/utils/__init__.py)", "requirement-conflict"),
    # torch._six gone: a satellite written for an older torch
    ("from timm.models.layers import helpers\nImportError: cannot import name 'container_abcs' from 'torch._six'",
     "companion-mismatch"),
    # Lightning older than torch 2.0's LRScheduler
    ("MisconfigurationException: The provided lr scheduler `StepLR` doesn't follow PyTorch's LRScheduler API.",
     "companion-mismatch"),
    # Poetry's resolver
    ("SolverProblemError\nBecause transformers (4.30.0) depends on tokenizers (>=0.11.1,<0.14) and my-app "
     "depends on tokenizers (0.15.0), version solving failed.", "requirement-conflict"),
    # cuDNN of another release than the build's
    ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:359] Loaded runtime CuDNN library: 8.0.5 but source was "
     "compiled with: 8.1.0.", "cuda-toolkit-mismatch"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # a Pi Zero 2 is ARMv8: SIGILL there is a 64-bit board's release question
    ("Raspberry Pi Zero 2 W, 64-bit OS: Illegal instruction (core dumped) after import torch",
     "cpu-instructions-unsupported"),
    # the AVX check on Linux: the CPU really lacks AVX
    ("Ubuntu 20.04 on a Celeron N3350\nThe TensorFlow library was compiled to use AVX instructions, but these "
     "aren't available on your machine.", "wrong-architecture"),
    # jaxlib's message alone: it names macOS itself, the machine is not shown
    ("RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU and/or operating "
     "system do not support. This error is frequently encountered on macOS when running an x86 Python "
     "installation on ARM hardware.", "wrong-architecture"),
    # torchvision's own CUDA check stays a companion
    ("RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions.",
     "extension-abi-mismatch"),
    # another package's missing module
    ("ModuleNotFoundError: No module named 'keras_cv'", "companion-mismatch"),
    # a provider that is in the build but cannot load its libraries
    ("Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies",
     "cpu-only-build"),
    # print() as Python 3 writes it, and a syntax error of another kind
    ('  File "run.py", line 3\n    print("done"\n          ^\nSyntaxError: unexpected EOF while parsing',
     "interpreter-mismatch"),
    # an f-string with an error of its own on a new Python
    ('  File "run.py", line 3\n    x = f"{a!z}"\n         ^\nSyntaxError: f-string: invalid conversion character',
     "unsupported-python"),
    # a frozen app failing on its own build machine, a module not collected
    ("PyInstaller build: the exe fails right away with ModuleNotFoundError: No module named "
     "'sklearn.utils._typedefs'", "missing-vc-runtime"),
    # docker run with the GPU passed in
    ("docker run --gpus all myimage\nRuntimeError: CUDA error: no kernel image is available for execution on "
     "the device", "gpu-build-without-gpu"),
    # a numpy array refused as a list: another type
    ("TypeError: argument 1 must be list, not numpy.ndarray", "numpy-abi-mismatch"),
    # the user's cuDNN is the one ORT needs: the library is not found
    ("cuDNN 9.1 installed\nFailed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*.",
     "cuda-toolkit-mismatch"),
    # CUDA's invalid device function with another error number: an illegal address
    ("Check failed: error == cudaSuccess (700 vs. 0)  an illegal memory access was encountered",
     "gpu-arch-unsupported"),
    # faiss's other attributes: not the GPU build's
    ("AttributeError: module 'faiss' has no attribute 'IndexFlatL2'", "cpu-only-build"),
    # Docker's other daemon errors
    ("docker: Error response from daemon: pull access denied for myimage", "gpu-build-without-gpu"),
    # a name missing from a package that is not of the Hugging Face stack
    ("ImportError: cannot import name 'Literal' from 'typing'", "requirement-conflict"),
    # Qt's platform plugin missing a system library: not opencv's Qt
    ('qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "/usr/lib/x86_64-linux-gnu/qt5/plugins" '
     "even though it was found.\nlibxcb-xinerama.so.0: cannot open shared object file", "dll-version-conflict"),
    # the fresh-eyes review's look-alikes
    ("Ubuntu 22.04, Celeron J1900\nRuntimeError: This version of jaxlib was built using AVX instructions, which "
     "your CPU and/or operating system do not support.\nThis error is frequently encountered on macOS when running "
     "an x86 Python installation on ARM hardware.", "wrong-architecture"),
    ("docker buildx build --platform linux/amd64,linux/arm64 .\nThe TensorFlow library was compiled to use AVX "
     "instructions, but these aren't available on your machine. (Xeon X5650 host)", "wrong-architecture"),
    ("Mac Pro 2010 (Westmere Xeon), macOS 10.13\nThe TensorFlow library was compiled to use AVX instructions, but "
     "these aren't available on your machine.", "wrong-architecture"),
    ("I run python.exe train.py on another machine and get RuntimeError: CUDA error: out of memory",
     "missing-vc-runtime"),
    ("The PyInstaller exe works on another computer but here: ModuleNotFoundError: No module named "
     "'sklearn.neighbors._typedefs'", "missing-vc-runtime"),
    ("qt.qpa.xcb: could not connect to display\nqt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in "
     "\"/venv/lib/python3.10/site-packages/cv2/qt/plugins\" even though it was found.", "dll-version-conflict"),
    ('  File "/usr/lib/python3.10/site-packages/foo/__init__.py", line 3, in <module>\n'
     "ImportError: No module named torch_geometric", "interpreter-mismatch"),
    ("ImportError: cannot import name 'load_dataset' from 'datasets' (/home/u/proj/datasets/__init__.py)",
     "requirement-conflict"),
    ("from huggingface_hub import split_torch_state_dict_into_shards\nModuleNotFoundError: No module named 'torch'",
     "requirement-conflict"),
    ('  File "demo.py", line 9\n    foo(f"{a}" c)\n        ^^^^^^^^^\nSyntaxError: invalid syntax. Perhaps you '
     "forgot a comma?", "unsupported-python"),
    ('  File "/tmp/pip-install-abc/foo/setup.py", line 12\n    print "building"\n          ^\n'
     "SyntaxError: invalid syntax", "interpreter-mismatch"),
    ('  File "/home/u/.local/lib/python3.9/site-packages/oldpkg/core.py", line 12\n    print "x"\n          ^\n'
     "SyntaxError: invalid syntax", "pythonpath-pollution"),
    ("docker run -it \\\n  --gpus all \\\n  myimage\nNo GPU detected", "gpu-build-without-gpu"),
    ("OSError: [Errno 8] Exec format error: '/home/u/run_model.sh'", "wrong-architecture"),
    ("Raspberry Pi Zero-2 W: Illegal instruction (core dumped)", "cpu-instructions-unsupported"),
    ("System.EntryPointNotFoundException: Unable to find an entry point named 'SetThreadDescription' in DLL "
     "'kernel32.dll'.", "symbol-mismatch"),
    # a PyInstaller 3/4 bundle's frames: relative to the bundle, no shadowing
    ('  File "PyInstaller\\loader\\pyimod03_importers.py", line 389, in load_module\n'
     '  File "torch\\__init__.py", line 81, in <module>\nOSError: [WinError 126] The specified module could not '
     "be found.", "shadowed-module"),
    # Qt's thread warning in a PySide6 app without OpenCV
    ("QObject::moveToThread: Current thread (0x55d1c0a0) is not the object's thread (0x55d1c3f0).\n"
     "PySide6 6.6.1, my own widgets", "dll-version-conflict"),
]

HEALTHY = [
    "brew install libomp, then xgboost trained the model in 4 s",
    "tch 0.18.1 with PyTorch 2.5.1: cargo build finished, the example runs",
    "docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3 nvidia-smi lists the RTX 4090",
]


def test_typographic_quotes_and_spaces_read_as_plain() -> None:
    """A message pasted through a forum or a word processor (curly quotes, no-break spaces)
    is recognised as its plain form is, on the same line."""
    from dldoctor.explainer import diagnose_text

    plain = "Loading the model\nImportError: No module named 'numpy.core._multiarray_umath'\n"
    typographic = "Loading the\u00a0model\nImportError: No module named \u2018numpy.core._multiarray_umath\u2019\n"
    a, b = diagnose_text(plain, words=False).shown, diagnose_text(typographic, words=False).shown
    assert a and a[0].slug == "numpy-abi-mismatch" and [c.slug for c in a] == [c.slug for c in b]
    assert [h.line for h in a[0].hits] == [h.line for h in b[0].hits] == [2]
