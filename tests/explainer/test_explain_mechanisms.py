"""Mechanism-level rules (issue 14, item 2): each text below shows one mechanism in words of
its own (not a corpus case), and explain must put the cause the mechanism implies first (the claims run in
test_explain_mechanism_rounds.py, over every round)."""

from __future__ import annotations

W = "C:\\\\env\\\\Lib\\\\site-packages"
CASES = [
    # explain2: mechanisms written in words no corpus case uses
    # pip's resolver message, wrapped by a rich console
    ("ERROR: Cannot install a==1.0 and b==2.0 because these package versions have\n      conflicting dependencies.",
     "requirement-conflict"),
    # macOS dyld's own words for a missing symbol
    ("ImportError: dlopen(/x/site-packages/foo/_C.so, 2): Symbol not found: _bar_baz\n"
     "  Referenced from: /x/libfoo.dylib",
     "symbol-mismatch"),
    # a symbol of a CUDA library torch expects, in a title without the colon
    ("import torch: undefined symbol ncclSomethingNew", "symbol-mismatch"),
    # the traceback runs through a relative package folder: a source checkout shadows the install
    ('Traceback (most recent call last):\n  File "numpy/__init__.py", line 3, in <module>\nImportError: boom',
     "shadowed-module"),
    # a conda env's site-packages and the user site in one traceback
    ('  File "/home/u/miniconda3/envs/a/lib/python3.10/site-packages/pkg/__init__.py", line 1\n'
     '  File "/home/u/.local/lib/python3.10/site-packages/numpy/__init__.py", line 2\nImportError: x',
     "user-site-shadowing"),
    # torch's own DLL loop fails with "procedure not found": a same-named DLL is already loaded
    ("OSError: [WinError 127] The specified procedure could not be found. Error loading "
     f'"{W}\\torch\\lib\\c10_cuda.dll" or one of its dependencies.', "import-order-conflict"),
    # the user says the import works from another interpreter
    ("ModuleNotFoundError: No module named 'jax'\nwith python3.11 import jax works fine", "interpreter-mismatch"),
    # TensorFlow's own word that its build has no CUDA
    ("print(tf.test.is_built_with_cuda())  # False", "cpu-only-build"),
    # the DLL's class: the VC++ runtime named
    ("ImportError: DLL load failed: VCRUNTIME140_1.dll was not found", "missing-vc-runtime"),
    # a framework's own DLL that is there but fails with 126, in ctypes' words
    (f"FileNotFoundError: Could not find module '{W}\\\\torch\\\\lib\\\\c10.dll' (or one of its dependencies). "
     "Try using the full path with constructor syntax.", "missing-vc-runtime"),
    # the Windows error code however it is written: [WinError 126], "Error code 126"
    ("Could not load library cudnn_cnn_infer64_8.dll. Error code 126", "missing-shared-library"),
    ("OSError: WinError 1455 while loading cudnn_adv_infer64_8.dll", "pagefile-too-small"),
    # a vendor library looked up at run time
    ("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!",
     "missing-shared-library"),
    ("RuntimeError: Library cublas64_12.dll is not found or cannot be loaded", "missing-shared-library"),
    # a stray vendor DLL in System32
    ("Error loading C:\\Windows\\System32\\cudnn64_8.dll: The specified procedure could not be found",
     "dll-version-conflict"),
    # localized Windows message (Japanese) with the structure torch prints
    ("ImportError: DLL load failed while importing _C: 指定されたプロシージャが見つかりません。", "symbol-mismatch"),
    # the call site of CUDA IPC on Windows
    ("RuntimeError: cuda runtime error (801) : operation not supported at "
     "C:\\w\\1\\s\\windows\\pytorch\\torch/csrc/generic/StorageSharing.cpp:245", "cuda-ipc-unsupported"),
    # static TLS exhausted: a library imported before torch took the slots
    ("ImportError: dlopen: cannot load any more object with static TLS", "import-order-conflict"),
    # a THP symbol (torch's Python bindings) unresolved in an extension: imported before torch
    ("ImportError: /env/lib/python3.10/site-packages/myext/_C.so: undefined symbol: THPVariableClass",
     "import-order-conflict"),
    # the user's own sentence about import order
    ("Importing cv2 before torch crashes with a segfault; importing torch first works fine.",
     "import-order-conflict"),
    # a symbol versioned by another CUDA library: a system copy shadows the wheel's
    ("OSError: /usr/local/cuda-12.1/lib64/libcublas.so.12: undefined symbol: cublasLtGetVersion, "
     "version libcublasLt.so.12", "ld-library-path-override"),
    # two interpreters' folders in one report
    ("Requirement already satisfied: torch in /usr/lib/python3.10/site-packages (2.2.0)\n"
     "$ python script.py\n  File \"/usr/lib/python3.8/runpy.py\"\nModuleNotFoundError: No module named 'torch'",
     "interpreter-mismatch"),
    ("pip list shows torch but python says No module named torch", "interpreter-mismatch"),
    # a 32-bit interpreter named by its install folder / build folder
    ("C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python38-32\\python.exe -m pip install torch\n"
     "ERROR: No matching distribution found for torch", "python-32bit"),
    ("building 'torch._C' extension\ncreating build\\temp.win32-3.7\\Release\nerror: command 'cl.exe' failed",
     "python-32bit"),
    # an end-of-life interpreter, as pip says it
    ("DEPRECATION: Python 3.5 reached the end of its life on September 13th, 2020.\n"
     "ERROR: Could not find a version that satisfies the requirement torch==1.13.1", "unsupported-python"),
    # the user's own words about the GPU that runs the work
    ("It seems that it is running on my integrated graphics card, not the RTX 3060.", "hybrid-graphics"),
    # a GPU container without the GPU
    ("docker run -it pytorch/pytorch:latest python\n>>> torch.cuda.is_available()\nFalse",
     "gpu-build-without-gpu"),
    # the call site: the user's code moves a tensor to CUDA on a machine without a driver
    ("  File \"train.py\", line 9, in <module>\n    model = model.cuda()\n"
     "RuntimeError: Found no NVIDIA driver on your system.", "code-requires-cuda"),
]
