"""Mechanism-level rules, twelfth round (issue 14, item 2): the wrong assumptions generation 9's
held-out cases showed once they were measured and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # CUDA's stub libcuda answers instead of the driver
    ("cuInit failed: CUDA_ERROR_STUB_LIBRARY", "ld-library-path-override"),
    ("RuntimeError: numba cannot initialise the device (CUDA error 34)", "ld-library-path-override"),
    ("echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.1/lib64/stubs:/usr/local/cuda-12.1/lib64\n"
     "then jax finds no GPU", "ld-library-path-override"),
    # before CUDA 11 the library names carry the minor release: 10.0 asked for, 10.1 installed
    ("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
     "'cublas64_100.dll'; dlerror: cublas64_100.dll not found\nMy CUDA is 10.1 with cuDNN 7.6",
     "cuda-toolkit-mismatch"),
    ("I have CUDA 10.2 installed but ImportError: libcudart.so.10.0: cannot open shared object file: No such "
     "file or directory", "cuda-toolkit-mismatch"),
    # an AMD discrete GPU beside an error only CUDA gives
    ("AssertionError: Torch not compiled with CUDA enabled\nmy card is a Radeon RX 6700 XT", "code-requires-cuda"),
    ("RuntimeError: D:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\cuda\\cuda_call.cc:121 "
     "onnxruntime::CudaCall\nPC: Ryzen 5 3600, RX 580 8GB", "code-requires-cuda"),
    # an application's fallback message while the user set up CUDA
    ("I installed CUDA 12.1 and the driver, still: [INFO] No GPU detected, using CPU instead", "cpu-only-build"),
    # CUDA installed for another project breaks a working one
    ("It worked for months, then I installed CUDA 12.4 for a different tool and now faster-whisper "
     "crashes at start", "cuda-toolkit-mismatch"),
    # cv2 on a Windows N edition
    ("ImportError: DLL load failed while importing cv2: 找不到指定的模块。", "missing-shared-library"),
    ("Windows 11 Pro N, python 3.11: import cv2 fails with ImportError: DLL load failed", "missing-shared-library"),
    # an HDF5 user missing a procedure after another module loaded its HDF5
    ('  File "C:\\envs\\a\\lib\\site-packages\\tables\\__init__.py", line 44, in <module>\n'
     "    from .utilsextension import get_hdf5_version\n"
     "ImportError: DLL load failed while importing utilsextension: The specified procedure could not be found.",
     "import-order-conflict"),
    # two HDF5 users installed side by side crash together
    ("python segfaults at import when h5py and netcdf4 are both installed from pip", "dll-version-conflict"),
    # distutils left the standard library in Python 3.12
    ("ModuleNotFoundError: No module named 'distutils'\n(python 3.12.1, pip install -r requirements.txt)",
     "unsupported-python"),
    # SWIG missing for an sdist build
    ("error: command 'swig.exe' failed: None\nERROR: Failed building wheel for pocketsphinx", "extension-build-env"),
    ("unable to execute 'swig': No such file or directory", "extension-build-env"),
    # `which python` answers another interpreter than the active environment
    ("(myenv) $ which python\n/usr/bin/python\nso the venv is active but which python is not the one in it",
     "interpreter-mismatch"),
    # TensorFlow's DLL initialisation failing, named in prose only
    ("Importing tensorflow gives ImportError: DLL load failed: A dynamic link library (DLL) initialization "
     "routine failed.", "cpu-instructions-unsupported"),
    # written on the train cases that got no answer at all
    # the GPU unused, in other words and languages
    ("PyTorch not detecting my GPU after the update", "cpu-only-build"),
    ("装了CUDA 12.1，但是显卡检测不到，一直用CPU跑", "cpu-only-build"),
    ("GPUが認識されない。CUDAは入れました", "cpu-only-build"),
    # SIGILL in glibc's translations
    ("$ python -c 'import tensorflow'\nНедопустимая инструкция (стек памяти сброшен на диск)",
     "cpu-instructions-unsupported"),
    ("python train.py\nUngültiger Maschinenbefehl (Speicherabzug geschrieben)", "cpu-instructions-unsupported"),
    # one list for Windows' "procedure not found" in every language (the [phrases] table): each
    # signature that needs it now knows all of them
    ('OSError: Не найдена указанная процедура. Error loading "C:\\venv\\lib\\site-packages\\torch\\lib\\shm.dll" '
     "or one of its dependencies.", "import-order-conflict"),
    ('Impossibile trovare la procedura specificata. Error loading "C:\\app\\lib\\cudnn_ops64_9.dll"',
     "dll-version-conflict"),
    # the paging file, retold
    ("it says the page file is too small when loading the checkpoint", "pagefile-too-small"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # CUDA error 35 is an old driver, not the stub library; the stubs folder used only to link
    ("Warp CUDA error: Failed to get driver entry point 'cuInit' (CUDA error 35)", "ld-library-path-override"),
    ("-L/usr/local/cuda/lib64/stubs -lcuda\nlinking succeeded", "ld-library-path-override"),
    # from CUDA 11 on the name carries the major only: cudart64_110.dll serves every 11.x
    ("Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\nI have CUDA 11.2",
     "cuda-toolkit-mismatch"),
    # the same minor on both sides
    ("Could not load dynamic library 'cudart64_101.dll'\nCUDA 10.1 is installed", "cuda-toolkit-mismatch"),
    # an APU's Radeon Graphics beside the laptop's NVIDIA GPU
    ("CPU: AMD Ryzen 7 5800H with Radeon Graphics, GPU: RTX 3060 Laptop\nonnxruntime::CudaCall CUBLAS failure 3: "
     "CUBLAS_STATUS_ALLOC_FAILED", "code-requires-cuda"),
    # the app falls back to the CPU on a machine that has no GPU, by the user's own account
    ("I don't have a GPU on this server and the log says No GPU found, use CPU instead. Is that fine?",
     "cpu-only-build"),
    # CUDA installed for this project, not another
    ("I installed CUDA 11.8 for this project as the README says, and it runs fine", "cuda-toolkit-mismatch"),
    # cv2 imports fine
    ("import cv2 works; print(cv2.__version__) gives 4.9.0", "missing-shared-library"),
    # "Pro" and "N" that are no N edition
    ("I use the Pro N-series laptop charger", "missing-shared-library"),
    # h5py's own error, no other HDF5 user
    ("import h5py\nOSError: Unable to open file (file signature not found)", "import-order-conflict"),
    # two HDF5 users that work together
    ("h5py and netcdf4 installed side by side, both import fine, no crash", "dll-version-conflict"),
    # setuptools provides distutils: a warning, not a failure
    ("UserWarning: Setuptools is replacing distutils.", "unsupported-python"),
    # swig found and used
    ("running build_ext\nbuilding 'box2d._Box2D' extension\nswigging Box2D/Box2D.i to Box2D/Box2D_wrap.cpp\n"
     "swig.exe -python -c++ -IBox2D -small -O -includeall -ignoremissing -w201 -globalmodule -outdir library\n"
     "Successfully built box2d-py", "extension-build-env"),
    # which python answers the environment's own interpreter
    ("(myenv) $ which python\n/home/u/myenv/bin/python\nall good", "interpreter-mismatch"),
    # torch's c10.dll failing to initialise is no TensorFlow question, even with tensorflow imported later
    ("OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "
     '"C:\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
     "cpu-instructions-unsupported"),
    # advice about the GPU, not a complaint; a question whether the GPU is used
    ("Make sure CUDA is installed so the GPU is recognized; then it runs fine", "cpu-only-build"),
    # a page file large enough
    ("I set the page file to 64 GB, which is not too small, and it loads fine", "pagefile-too-small"),
    # self-review: cv2 imported before another module whose DLL fails; Debian's split distutils on
    # Python 3.8 (python3-distutils), not 3.12; a question about which python to use
    ("import cv2\nimport torch\nImportError: DLL load failed while importing _C: The specified module could not "
     "be found.",
     "missing-shared-library"),
    ("ModuleNotFoundError: No module named 'distutils.util'  (Ubuntu 20.04, python3.8)", "unsupported-python"),
    ("which python should I use, the system python or the conda one?", "interpreter-mismatch"),
]

HEALTHY = [
    "h5py and netCDF4 import fine together now, thanks",
    "which python\n/home/u/venv/bin/python",
]


def test_the_minor_release_is_compared_only_before_cuda_11() -> None:
    """cudart64_101.dll with CUDA 10.2 is another release; cudart64_110.dll with CUDA 11.8 is not."""
    before = "Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found\nCUDA 10.2"
    after = "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\nCUDA 11.8"
    assert shown_slugs(before)[:1] == ["cuda-toolkit-mismatch"]
    assert shown_slugs(after)[:1] != ["cuda-toolkit-mismatch"]
