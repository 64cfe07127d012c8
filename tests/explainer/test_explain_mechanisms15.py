"""Mechanism-level rules, fifteenth round (issue 14, item 2): written on generation 11's train
cases after their "before" numbers were taken, each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # mkl-service refusing Intel's threading layer beside GNU's OpenMP
    ("Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible with libgomp-a34b3233.so.1 "
     "library.\n\tTry to import numpy first or set the threading layer accordingly.", "duplicate-openmp"),
    # two OpenMP runtimes, in the user's words
    ("training segfaults on my Mac; I think it is a conflict between libomp.dylib from lightgbm and "
     "libiomp5.dylib from torch", "duplicate-openmp"),
    ("OMP warns about multiple OpenMP runtimes linked into the program and then the kernel dies", "duplicate-openmp"),
    # Intel MKL cannot load one of its own libraries
    ("INTEL MKL ERROR: The specified module could not be found. mkl_vml_avx2.1.dll.\n"
     "Intel MKL FATAL ERROR: Cannot load mkl_vml_avx2.1.dll.", "missing-shared-library"),
    # torchaudio finds no FFmpeg it supports
    ("torio._extension.utils - DEBUG - Failed to load FFmpeg7 extension.\nRuntimeError: Failed to intialize "
     "FFmpeg extension. Tried versions: [6, 5, 4]", "missing-shared-library"),
    # an x86 build on Apple silicon, in the user's words
    ("On my MacBook with M2 Pro, pip keeps giving me the x86_64 wheel and numba crashes", "wrong-architecture"),
    ("ERROR: No matching distribution found for mlx", "wrong-architecture"),
    # JAX asked for a GPU it has not got
    ("RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present.",
     "code-requires-cuda"),
    # collect_env's GPU line names no NVIDIA card, and CUDA fails
    ("CUDA error: no CUDA-capable device is detected\n- GPU models and configuration: Intel UHD Graphics 620",
     "gpu-build-without-gpu"),
    # a script imports the module it is named after
    ('Traceback (most recent call last):\n  File "C:\\work\\ultralytics.py", line 1, in <module>\n'
     "    from ultralytics import YOLO\nImportError: cannot import name 'YOLO' from partially initialized module "
     "'ultralytics'", "shadowed-module"),
    # a top-level module found inside an installed package's folder
    ("ImportError: cannot import name 'Enum' from 'enum' "
     "(/home/u/.venv/lib/python3.11/site-packages/scipy/enum.py)", "shadowed-module"),
    # a torch source tree imported instead of the installed one
    ("ModuleNotFoundError: No module named 'torch.version'", "shadowed-module"),
    # onnxruntime's native module lacks the names its __init__ wants
    ("  File \"/usr/lib/python3/site-packages/onnxruntime/__init__.py\", line 23, in <module>\n"
     "    from onnxruntime.capi._pybind_state import ExecutionMode, get_build_info\n"
     "ImportError: cannot import name 'get_build_info'", "duplicate-install"),
    # a release's sdist without one of its own sources
    ("building 'roialign._C' extension\n"
     "g++: error: src/ops/roi_align_kernel.cpp: No such file or directory", "known-bad-release"),
    # a header of a system library missing from the build environment
    ("src/_portaudiomodule.c:29:10: fatal error: portaudio.h: No such file or directory\n"
     "compilation terminated.", "extension-build-env"),
    ("C:\\src\\kernel.cpp(3): fatal error C1083: Cannot open include file: 'cuda_fp16.h': No such file or "
     "directory", "extension-build-env"),
    # pipdeptree shows pip's ~ leftovers without their first letter
    ("-orch==2.1.0\n  - filelock [required: Any, installed: 3.12.2]", "pip-leftovers"),
    # Colab's runtime without a GPU
    ("Running the notebook on Google Colab:\nRuntimeError: No CUDA GPUs are available", "gpu-build-without-gpu"),
    # a versioned symbol that the copy of its library loaded first lacks
    ("OSError: /usr/lib/x86_64-linux-gnu/libswscale.so.5: undefined symbol: av_get_pix_fmt_name, "
     "version LIBAVUTIL_56", "dll-version-conflict"),
    # a package's own file missing from its install
    ("FileNotFoundError: [Errno 2] No such file or directory: "
     "'/opt/venv/lib/python3.10/site-packages/tokenizers_ext/vocab.json'", "known-bad-release"),
    # the user says the published wheel is broken
    ("The wheel on PyPI is broken: version 1.4.2 lacks the compiled module", "known-bad-release"),
    # removed or not-yet-added names of a dependency
    ("ImportError: cannot import name 'cached_download' from 'huggingface_hub'", "requirement-conflict"),
    # an application's Python importing from the user's site
    ('  File "C:\\Program Files\\Blender Foundation\\Blender 4.1\\4.1\\python\\lib\\importlib\\__init__.py", line 90\n'
     '  File "C:\\Users\\ana\\AppData\\Roaming\\Python\\Python311\\site-packages\\scipy\\__init__.py", line 5\n'
     "ImportError: DLL load failed while importing _ufuncs", "user-site-shadowing"),
    # python3 on Windows beside a conda environment
    ("Windows 11, conda activate tf\npython3 -m pip install tensorflow\npython3 -c \"import tensorflow\" "
     "prints no GPU", "interpreter-mismatch"),
    # the install command gave the CPU build
    ("pip install torch --index-url ... still installs the cpu version instead of the cuda one", "cpu-only-build"),
    # a Node.js binding missing for this OS and CPU
    ("Error: Cannot find module '../bin/napi-v3/linux/arm64/onnxruntime_binding.node'", "known-bad-release"),
    # SIGILL on a Jetson, retold
    ("On the Jetson Nano, python3 detect.py ends with: Invalid instruction (core dumped)", "known-bad-release"),
    # the fresh-eyes review's positives: other wordings of the same mechanisms
    ("UserWarning: Found Intel OpenMP ('libiomp') and LLVM OpenMP ('libomp') loaded at\nthe same time. Both "
     "libraries are known to be incompatible", "duplicate-openmp"),
    ("src/audio.c:3:10: fatal error: 'portaudio.h' file not found", "extension-build-env"),
    ("Kaggle notebook, accelerator None:\nRuntimeError: Found no NVIDIA driver on your system.",
     "gpu-build-without-gpu"),
    ("FileNotFoundError: [Errno 2] No such file or directory: "
     "'C:\\\\venv\\\\Lib\\\\site-packages\\\\xformers\\\\cpp_lib.json'", "known-bad-release"),
    ("0.2.4 is broken, 0.2.3 works", "known-bad-release"),
    ("ImportError: /usr/lib/x86_64-linux-gnu/libQt5XcbQpa.so.5: undefined symbol: "
     "_ZN22QWindowSystemInterface, version Qt_5_PRIVATE_API", "dll-version-conflict"),
    ("RuntimeError: FFmpeg libraries are not found. Please install FFmpeg.", "missing-shared-library"),
    ("The installer downloads the Intel build even though the chip is Apple M2", "wrong-architecture"),
    # an onnx newer than the runtime that loads its model
    ("[ONNXRuntimeError] : 1 : FAIL : Load model from m.onnx failed: Unsupported model IR version: 11, "
     "max supported IR version: 10", "companion-mismatch"),
    # numpy older than what a package needs, imported first
    ("AttributeError: type object 'numpy.ndarray' has no attribute '__array_function__'", "user-site-shadowing"),
    # CPU instruction sets, in Chinese, FMA included
    ("运行时报 illegal hardware instruction，CPU 指令集不支持 FMA", "cpu-instructions-unsupported"),
    # the user's machine has no GPU while the code needs CUDA
    ("AssertionError: Torch not compiled with CUDA enabled\nIt's an office PC with 32 GB RAM but no GPU at all",
     "code-requires-cuda"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # the threading layer chosen as the message advises: nothing fails
    ("export MKL_THREADING_LAYER=GNU is set in our Dockerfile and training runs", "duplicate-openmp"),
    # one OpenMP runtime named, no conflict
    ("conda list shows llvm-openmp which provides libomp.dylib; all tests pass", "duplicate-openmp"),
    # a file of the user's own sources missing: not a release, the checkout is incomplete
    ("cat: src/main.cpp: No such file or directory", "known-bad-release"),
    # a header found
    ("-- Looking for portaudio.h - found", "extension-build-env"),
    # a module of a package, named with its dot: its own file
    ("ImportError: cannot import name 'foo' from 'scipy.enum' "
     "(/home/u/.venv/lib/python3.11/site-packages/scipy/enum.py)", "shadowed-module"),
    # a script that imports another module
    ('  File "train.py", line 1, in <module>\n    import torch\nModuleNotFoundError: No module named \'torch\'',
     "shadowed-module"),
    # pipdeptree's ordinary child lines
    ("torch==2.1.0\n  - filelock [required: Any, installed: 3.12.2]", "pip-leftovers"),
    # an NVIDIA GPU on the collect_env line
    ("- GPU models and configuration: GPU 0: NVIDIA GeForce RTX 3060 (AMD Ryzen 5 host)\n"
     "RuntimeError: CUDA error: out of memory", "gpu-build-without-gpu"),
    # a CUDA library's soname version: another CUDA library first on LD_LIBRARY_PATH
    ("ImportError: libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12",
     "dll-version-conflict"),
    # a model file the user has not downloaded yet, in a package's folder
    ("FileNotFoundError: [Errno 2] No such file or directory: "
     "'/opt/venv/lib/python3.10/site-packages/gfpgan/weights/GFPGANv1.4.pth'", "known-bad-release"),
    # broken, but not a release
    ("my pipeline is broken since I changed the config", "known-bad-release"),
    # Colab with a GPU runtime, and a driver error of another kind
    ("On Colab with a T4 runtime: RuntimeError: CUDA error: an illegal memory access was encountered",
     "gpu-build-without-gpu"),
    # the user asks how to install the CPU build
    ("I'm trying to install cpu version of pytorch3d, which command should I use?", "cpu-only-build"),
    # python3 on Linux with conda: the env has python3
    ("Ubuntu 22.04, conda activate tf\npython3 -m pip install tensorflow", "interpreter-mismatch"),
    # the fresh-eyes review's look-alikes
    ("I changed requirements.txt and now training is slower:\n-transformers==4.38.0\n+transformers==4.40.0",
     "pip-leftovers"),
    ("I have an RTX 3080 and installed torch with pip but no GPU acceleration happens.\n"
     "AssertionError: Torch not compiled with CUDA enabled", "code-requires-cuda"),
    ("torch.OutOfMemoryError: HIP out of memory.\nPyTorch version: 2.4.0+rocm6.1\n"
     "ROCM used to build PyTorch: 6.1.40091\nGPU models and configuration: AMD Radeon RX 7900 XTX",
     "gpu-build-without-gpu"),
    ("m1 = Intel version of the model (baseline); m2 = our port.\nRuntimeError: Expected all tensors to be on "
     "the same device", "wrong-architecture"),
    ("ERROR: No matching distribution found for mlx-lm (pip's index-url is our company mirror)",
     "wrong-architecture"),
    ("WARNING:torchaudio._extension.utils:Failed to load FFmpeg extension, falling back to soundfile.\n"
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "missing-shared-library"),
    ('  File "/venv/lib/python3.8/site-packages/attr/attr.py", line 2, in <module>\n'
     "    from attr import _config\nImportError: /venv/lib/python3.8/site-packages/mmcv/_ext.so: "
     "undefined symbol: _ZN2at6detail10empty_cuda", "shadowed-module"),
    ("Is the release broken or is it me?", "known-bad-release"),
    ("we pin one runtime so that there are never multiple OpenMP runtimes in one process; that part works.\n"
     "ImportError: libGL.so.1: cannot open shared object file", "duplicate-openmp"),
    ("pip install . in my clone\ngcc: error: third_party/cutlass/tools/util/src/device_memory.cpp: "
     "No such file or directory", "known-bad-release"),
    # an M2 user running the arm64 build on purpose
    ("On my M2 I run the arm64 build, not the x86 one, and it is fast", "wrong-architecture"),
]

HEALTHY = [
    "Intel MKL threading layer set to GNU; the benchmark ran in 3.2 s",
    "Loaded FFmpeg6 extension; decoding works",
]
