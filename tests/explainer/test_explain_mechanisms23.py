"""Mechanism-level rules, twenty-third round (issue 14, item 2): written on generation 18's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a Windows module the user compiled that cannot find a DLL: not the VC++ runtime
    ("I compiled it myself with CMake and Visual Studio 2022.\n"
     "ImportError: DLL load failed while importing pyfoo: The specified module could not be found.",
     "missing-shared-library"),
    ("-- Build files have been written to: C:/src/foo/build\n  Building CXX object foo/CMakeFiles/foo.dir/a.cpp.obj\n"
     ">>> import pyfoo\nImportError: DLL load failed while importing pyfoo: The specified module could not be found.",
     "missing-shared-library"),
    # a package's own check of any dependency's range
    ("ImportError: Requires Flash-Attention version >=2.7.1,<=2.7.4 but got 2.8.0.post2.", "requirement-conflict"),
    # JAX's check of a CUDA library it was built against
    ("CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built against version 8900, "
     "which is newer. The copy of cuDNN that is installed must be at least as new", "cuda-toolkit-mismatch"),
    # the launch API CUDA 10.1 removed, asked for by an extension built against an older toolkit
    ("ImportError: /opt/proj/lib/_ext.cpython-36m-x86_64-linux-gnu.so: undefined symbol: cudaSetupArgument",
     "cuda-toolkit-mismatch"),
    # Real-ESRGAN's helper sees no CUDA device
    ("C:\\sd\\venv\\lib\\site-packages\\gfpgan\\utils.py:61: UserWarning: The unoptimized RealESRGAN is slow on CPU. "
     "We do not use it.", "cpu-only-build"),
    # ONNX Runtime reports the CPU build after the GPU package was installed
    ("pip install onnxruntime-gpu\n>>> import onnxruntime\n>>> onnxruntime.get_device()\n'CPU'", "duplicate-install"),
    # `file` names the architecture of the binary that would not start
    ("$ ./tool\nzsh: bad CPU type in executable: ./tool\n$ file tool\ntool: Mach-O 64-bit executable arm64",
     "wrong-architecture"),
    ("The vendor's release is only for ARM boards?\n$ file libvendor.so\n"
     "libvendor.so: ELF 32-bit LSB shared object, ARM, EABI5 version 1 (SYSV), dynamically linked",
     "wrong-architecture"),
    # the Microsoft Store's Python
    ('  File "C:\\Program Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.11_3.11.2544.0_x64__qbz5n2kfra8p0'
     '\\Lib\\ctypes\\__init__.py", line 376, in __init__\nFileNotFoundError: Could not find module '
     "'C:\\Users\\me\\vendor.dll' (or one of its dependencies).", "missing-shared-library"),
    # TorchScript meets a Tensor method the installed torch lacks, in an extension package
    ("RuntimeError:\nTried to access nonexistent attribute or method 'ccol_indices' of type 'Tensor'.:\n"
     '  File "/usr/local/lib/python3.10/dist-packages/torch_sparse/tensor.py", line 120', "extension-abi-mismatch"),
    # pip's older resolver wording
    ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n"
     "imgtool 1.2.0 requires pillow==9.3.0, but you'll have pillow 8.4.0 which is incompatible.",
     "requirement-conflict"),
    # a title or a question that says the machine has no NVIDIA GPU
    ("Radeon GPU and CUDA incompatibility", "code-requires-cuda"),
    ("Does this need a NVIDIA GPU to run? RuntimeError: Found no NVIDIA driver on your system.", "code-requires-cuda"),
    # a dependency's release removed a name (pyarrow 21) and NumPy 2.0's own message for it
    ("AttributeError: module 'pyarrow' has no attribute 'PyExtensionType'. Did you mean: 'ExtensionType'?",
     "requirement-conflict"),
    ("AttributeError: `np.unicode_` was removed in the NumPy 2.0 release. Use `np.str_` instead.",
     "numpy-abi-mismatch"),
    ("    mask = arr.astype(np.bool8)\nAttributeError: module 'numpy' has no attribute 'bool8'. Did you mean: 'bool'?",
     "numpy-abi-mismatch"),
    # comet_ml imported after the frameworks it patches
    ("ImportError: You must import Comet before these modules: torch, tensorboard", "import-order-conflict"),
    # an old release's requirement strings that today's setuptools and pip reject
    ("WARNING: Ignoring version 0.3.0 of json2python-models since it has invalid metadata:\n"
     "    python-dateutil (>=2.7.*)\n.* suffix can only be used with `==` or `!=` operators", "extension-build-env"),
    ("  error in gym setup command: 'extras_require' must be a dictionary whose values are strings or lists of "
     "strings containing valid project/version requirement specifiers.", "extension-build-env"),
    # a conda environment's Python run without activating it
    ("I run C:\\Users\\me\\miniconda3\\envs\\cv\\python.exe app.py without activating the environment:\n"
     "ImportError: DLL load failed while importing _imaging: The specified module could not be found.",
     "missing-shared-library"),
    # the mmcv 1.x family meets mmcv 2
    ("    from mmcv.runner import load_checkpoint\nModuleNotFoundError: No module named 'mmcv.runner'",
     "companion-mismatch"),
    ("ImportError: cannot import name 'Config' from 'mmcv' (/opt/conda/lib/python3.10/site-packages/mmcv/__init__.py)",
     "companion-mismatch"),
    # a nightly beside its stable release in one listing
    ("tensorboard              2.15.1\ntensorflow               2.15.0\ntf-nightly               2.16.0.dev20231110\n"
     "ImportError: cannot import name 'tf2' from 'tensorflow.python'", "duplicate-install"),
    # generated protobuf code newer than the runtime
    ('  File "/srv/app/proto/model_pb2.py", line 21, in <module>\n    serialized_options=None,\n'
     "TypeError: __init__() got an unexpected keyword argument 'serialized_options'", "requirement-conflict"),
    # a package calling another with a keyword its release does not take
    ("INSTRUCTOR._load_sbert_model() got an unexpected keyword argument 'token'", "requirement-conflict"),
    ('  File "/usr/lib/python3/dist-packages/textkit/pipeline.py", line 40, in load\n'
     "    tok = Tokenizer(vocab=vocab, lowercase=True)\n"
     "TypeError: __init__() got an unexpected keyword argument 'lowercase'",
     "requirement-conflict"),
    # torch's CUDA build where ROCm was wanted
    ("Installed with the AMD (ROCm) option on my RX 7900 XTX, but pip list shows torch 2.5.1+cu124 and ComfyUI says "
     "Found no NVIDIA driver on your system.", "wrong-index-variant"),
    # ROCm: the GPU's ISA is not in the build
    (":0:rocdevice.cpp            :2879: Callback: Queue 0x7f aborting with error : HSA_STATUS_ERROR_INVALID_ISA: "
     "The instruction set architecture is invalid. code: 0x100f", "gpu-arch-unsupported"),
    # an extension's ops never registered in this torch
    ("AttributeError: '_OpNamespace' 'vllm_ext' object has no attribute 'fused_add_rms_norm'",
     "extension-abi-mismatch"),
    # programs and C libraries a package runs or loads that pip does not install
    ("pytesseract.pytesseract.TesseractNotFoundError: tesseract is not installed or it's not in your PATH. "
     "See README file for more information.", "missing-shared-library"),
    ("pdf2image.exceptions.PDFInfoNotInstalledError: Unable to get page count. Is poppler installed and in PATH?",
     "missing-shared-library"),
    ("ImportError: unable to find magic library", "missing-shared-library"),
    ('  File "C:\\Python310\\lib\\subprocess.py", line 1456, in _execute_child\n'
     "FileNotFoundError: [WinError 2] The system cannot find the file specified", "missing-shared-library"),
    # part 2, on generation 18's used-up held-out cases
    # conda's NumPy without the environment's Library\\bin, and a run that works from the prompt
    ('  File "C:\\Users\\me\\miniconda3\\envs\\sci\\lib\\site-packages\\numpy\\core\\__init__.py", line 24\n'
     "    from . import multiarray\nImportError: DLL load failed: The specified module could not be found.",
     "missing-shared-library"),
    ("Started from the Anaconda Prompt it works fine, from my editor I get\nImportError: DLL load failed while "
     "importing _ssl: The specified module could not be found.", "missing-shared-library"),
    # basicsr's ops not built; an extension's own CUDA function missing; Cython's output missing
    ("NameError: name 'upfirdn2d_ext' is not defined", "extension-build-env"),
    ("ImportError: /src/proj/ops/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_Z15nms_rotated_cudaRKN2at6TensorES2_f", "extension-build-env"),
    ("gcc: error: pycocotools/_mask.c: No such file or directory", "extension-build-env"),
    # MuJoCo's structs from another release; numba with another llvmlite
    ("AttributeError: 'mujoco._structs.MjModel' object has no attribute 'tendon_actfrclimited'",
     "companion-mismatch"),
    ('  File "/opt/env/lib/python3.9/site-packages/numba/core/codegen.py", line 654, in _init\n'
     "    tm = target.create_target_machine(**tm_options)\n"
     "TypeError: create_target_machine() got an unexpected keyword argument 'jitdebug'", "companion-mismatch"),
    # a program not installed, in POSIX's and Python 2's words
    ("FileNotFoundError: [Errno 2] No such file or directory: 'pdftoppm': 'pdftoppm'", "missing-shared-library"),
    ("WindowsError: [Error 2] The system cannot find the file specified", "missing-shared-library"),
    # Pydantic 2's moved names; two requirements retold; macOS's bad CPU type in other words
    ("pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the `pydantic-settings` package.",
     "requirement-conflict"),
    ("appkit requires numpy==1.26.4, but vizkit 2.0 requires numpy>=2.0", "requirement-conflict"),
    ("运行时显示bad cpu type，是不是只有arm版本？", "wrong-architecture"),
    # AMD selected, and the script installs torch from a CUDA index
    ("Even with AMD selected the installer runs pip install torch --extra-index-url "
     "https://download.pytorch.org/whl/cu121 and then says no NVIDIA GPU.", "wrong-index-variant"),
    # CMake without a library's development files
    ("CMake Error at /usr/share/cmake-3.22/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     "  Could NOT find ZLIB (missing: ZLIB_LIBRARY ZLIB_INCLUDE_DIR)", "extension-build-env"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # CMake not finding an optional package, and going on; NCCL's line between does not hide Boost's
    ("CMake Error at CMakeLists.txt:40 (find_package):\n  Could NOT find Boost (missing: Boost_INCLUDE_DIR)\n"
     "-- Could NOT find NCCL (missing: NCCL_INCLUDE_DIR)\n-- Configuring incomplete, errors occurred!",
     "missing-shared-library"),
    ("-- Could NOT find OpenMP_C (missing: OpenMP_C_FLAGS OpenMP_C_LIB_NAMES)\n-- Configuring done\n"
     "-- Generating done\nCMake Error at cmake_install.cmake:46 (file): file INSTALL cannot copy file",
     "extension-build-env"),
    # the CPU package asked for, reporting CPU
    ("pip install onnxruntime\n>>> onnxruntime.get_device()\n'CPU'", "duplicate-install"),
    # a build that worked, then a DLL the VC++ runtime provides: the self-built rule is only a lead
    ("I built it from source.\nImportError: DLL load failed: The specified module could not be found. "
     "Dependencies shows MSVCP140.dll and VCRUNTIME140_1.dll missing.", "missing-shared-library"),
    # "I built" something that is no module (the fresh-eyes review's reproducers)
    ("I just built a conda env with python 3.10 for this.\nImportError: DLL load failed while importing pyfoo: "
     "The specified module could not be found.", "missing-shared-library"),
    ("ImportError: DLL load failed while importing _C: The specified module could not be found.\n"
     "I have built a new PC with an RTX 4090", "missing-shared-library"),
    # a Python range or a toolkit in the version check's words
    ("ERROR: Requires Python >=3.10 but got 3.8.10", "requirement-conflict"),
    # a model's or a layer's own argument check is no dependency's version
    ("ValueError: Model requires n_ctx >= 2048 but got 512", "requirement-conflict"),
    ("RuntimeError: Layer requires input_dim == 768 but got 1024", "requirement-conflict"),
    ("RuntimeError: requires libcudnn >= 8.6 but found 8.2.1", "requirement-conflict"),
    ("RuntimeError: requires CUDA >=11.8 but found 11.7", "requirement-conflict"),
    # JAX's own check that passed, and the launch API in prose
    ("Found CUDA version 12040, but JAX was built against version 12020; no action needed", "cuda-toolkit-mismatch"),
    ("cudaSetupArgument and cudaLaunch were removed in CUDA 10.1; our kernels use <<<>>> launches",
     "cuda-toolkit-mismatch"),
    # get_device() says GPU; CPU named after it
    ("pip install onnxruntime-gpu==1.16\n>>> ort.get_device()\n'GPU'\nStill the model runs on CPU.",
     "duplicate-install"),
    ("pip install rembg[gpu]\n>>> rt.get_device()\n'GPU'\nproviders: CPU", "duplicate-install"),
    # `file` output with no failure (the binary is there and runs)
    ("$ file /usr/bin/python3.11\n/usr/bin/python3.11: ELF 64-bit LSB executable, x86-64, version 1 (SYSV), "
     "dynamically linked. Works fine.", "wrong-architecture"),
    ("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n$ file libcudart.so.12\n"
     "libcudart.so.12: ELF 64-bit LSB shared object, x86-64, version 1 (SYSV)", "wrong-architecture"),
    # the Store's Python named, and an error that is no DLL load
    ("C:\\Program Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.11_3.11.2544.0_x64__qbz5n2kfra8p0\\python.exe"
     "\nModuleNotFoundError: No module named 'torch'", "missing-shared-library"),
    # TorchScript in torch's own files is no extension
    ("Tried to access nonexistent attribute or method 'foo' of type 'Tensor'.:\n"
     '  File "/usr/lib/python3.10/site-packages/torch/nn/modules/module.py", line 3', "extension-abi-mismatch"),
    # an NVIDIA GPU named beside AMD's CPU, or after the question
    ("I have an AMD Ryzen 9 and an NVIDIA RTX 4090, and training is slower than I expected", "code-requires-cuda"),
    ("Do I need a NVIDIA GPU to run this? I have an RTX 3060.\nRuntimeError: CUDA out of memory.",
     "code-requires-cuda"),
    ("Does it require an NVIDIA GPU? My RTX 4090 shows torch.cuda.is_available() False", "code-requires-cuda"),
    # NumPy 2's message about the user's own code is still NumPy 2; pyarrow's other names are no removal
    ("AttributeError: module 'pyarrow' has no attribute 'Table'", "requirement-conflict"),
    # a module named like NumPy is no NumPy
    ("AttributeError: module 'numpy_utils' has no attribute 'float_'.", "numpy-abi-mismatch"),
    # comet's own words when it was imported first and works
    ("README: you must import Comet before anything else. Mine did and the experiment logged fine.",
     "import-order-conflict"),
    # activation of something else than an environment, or an environment activated
    ("Windows is not activated.\nImportError: DLL load failed while importing pyfoo: The specified module could "
     "not be found.", "missing-shared-library"),
    ("I activated the env and ran it; after that the error came:\nImportError: DLL load failed while importing _C: "
     "The specified module could not be found.", "missing-shared-library"),
    # mmcv 2's change told as news, with an install that worked
    ("mmcv 2.1.0 removes the runner; use mmengine. Successfully installed mmcv-2.1.0 mmengine-0.10.3",
     "companion-mismatch"),
    # a nightly alone
    ("tf-nightly               2.16.0.dev20231110\nkeras-nightly            3.0.0.dev2023111003", "duplicate-install"),
    # the user's own forward() called through torch's module machinery
    ('  File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1501, in _call_impl\n'
     "    return forward_call(*args, **kwargs)\nTypeError: MyModel.forward() got an unexpected keyword argument "
     "'labels'", "requirement-conflict"),
    # collect_env's ROCm line beside a CUDA build, and ROCm in prose
    ("PyTorch version: 2.1.0+cu121\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\n"
     "RuntimeError: Found no NVIDIA driver on your system.", "wrong-index-variant"),
    ("Note: xformers 0.0.23+cu118 has no ROCm build.", "wrong-index-variant"),
    ("Installed torch 2.1.0+cu121 on my RTX 4090. Ignore ROCm section of README.", "wrong-index-variant"),
    # a data file Windows cannot find is no program
    ("FileNotFoundError: [WinError 2] The system cannot find the file specified: 'config.yaml'",
     "missing-shared-library"),
    # a build's compiler not found is the build environment
    ("UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified",
     "missing-shared-library"),
    # a compiler is the build environment's, not a program to install
    ("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc': 'nvcc'", "missing-shared-library"),
    # a user's own MuJoCo-like class; a requirement told without a second package
    ("AttributeError: 'MjModelWrapper' object has no attribute 'foo'", "companion-mismatch"),
    ("this repo requires numpy==1.26.4, but that is fine for me", "requirement-conflict"),
    # a conda path that loads, and an error that is no DLL load
    ('  File "C:\\Anaconda3\\lib\\site-packages\\numpy\\core\\__init__.py", line 24\n'
     "ValueError: setting an array element with a sequence.", "missing-shared-library"),
    # NCCL's own CMake message has its own condition
    ("CMake Error at cmake/modules/FindNccl.cmake:45 (message):\n  Could NOT find Nccl (missing: NCCL_INCLUDE_DIR)",
     "extension-build-env"),
]

# words of success: no answer
HEALTHY = [
    "Found CUDA version 12040, JAX was built against version 12020: all good",
    ">>> onnxruntime.get_device()\n'GPU'",
    "-- Found Boost: /usr/include (found suitable version \"1.74.0\", minimum required is \"1.65\")",
    "Successfully installed pyarrow-21.0.0 datasets-4.0.0",
    "Successfully installed mmcv-2.1.0 mmengine-0.10.3 mmdet-3.3.0",
    "tesseract 5.3.0\n leptonica-1.82.0",
]
