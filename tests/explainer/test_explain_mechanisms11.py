"""Mechanism-level rules, eleventh round (issue 14, item 2): the wrong assumptions generation 8's
held-out cases showed once they were measured and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # a CPU model without AVX, named by the user
    ("koboldcpp closes right after launch. CPU: Intel(R) Pentium(R) Gold G6400 @ 4.00GHz, Windows 10",
     "cpu-instructions-unsupported"),
    ("import paddle exits without a word on our old server (2x Intel Xeon X5650, 96 GB)",
     "cpu-instructions-unsupported"),
    ("tensorflow quits as soon as it is imported; the PC is an old Core 2 Quad Q6600", "cpu-instructions-unsupported"),
    ("The app closes at start on my Intel Core i7-920 desktop, no message at all", "cpu-instructions-unsupported"),
    # koboldcpp's Failsafe mode is the one that starts
    ("Only the Failsafe mode launches, every other preset closes the window", "cpu-instructions-unsupported"),
    # the user's words about AVX2 processors; SIGILL in the plural
    ("Does this only work with AVX2 processors? It dies on my laptop.", "cpu-instructions-unsupported"),
    ("Illegal Instructions on startup of the service", "cpu-instructions-unsupported"),
    # Umi-OCR's engine has stopped working
    ("PaddleOCR-json.exe has stopped working, then the recognition fails", "cpu-instructions-unsupported"),
    # a TensorFlow add-on built against another TensorFlow (Linux, then macOS)
    ("tensorflow.python.framework.errors_impl.NotFoundError: /venv/lib/python3.11/site-packages/tensorflow_text/"
     "python/ops/_regex_split_ops.so: undefined symbol: _ZN10tensorflow8OpKernel11TraceStringERKNS_15OpKernel"
     "ContextEb", "extension-abi-mismatch"),
    ("caused by: [\"dlopen(/Users/u/env/lib/python3.11/site-packages/tensorflow_addons/custom_ops/image/_image_ops.so,"
     " 0x0006): symbol not found in flat namespace '__ZN3tsl6StatusC1EN4absl12lts_2023012512StatusCodeE'\"]",
     "extension-abi-mismatch"),
    # an older MKL answers the calls
    ("Intel MKL ERROR: Parameter 4 was incorrect on entry to DGEMM.", "ld-library-path-override"),
    # ERROR_BAD_EXE_FORMAT in cuDNN's loader words
    ("Could not load library cudnn_ops_infer64_8.dll. Error code 193", "wrong-architecture"),
    # Python 3.8 no longer searches PATH for an extension's DLLs
    ("ImportError: DLL load failed with Python 3.8, the same install works on 3.7", "missing-shared-library"),
    # dlib built with CUDA whose DLLs are not on the search path
    ("I built dlib with -DDLIB_USE_CUDA=1 and now import dlib says ImportError: DLL load failed: The specified "
     "module could not be found.", "missing-shared-library"),
    # the build tools: no C++ compiler for CMake, no cl on PATH, no cuDNN for dlib, CMake failing in pip
    ("CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CXX_COMPILER could be found.", "extension-build-env"),
    ("UserWarning: Error checking compiler version for cl: [WinError 2] The system cannot find the file specified",
     "extension-build-env"),
    ("-- *** cuDNN V5.0 OR GREATER NOT FOUND. ***\n-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA",
     "extension-build-env"),
    ("subprocess.CalledProcessError: Command '['cmake', '/tmp/pip-install-x/pkg/', '-DCMAKE_BUILD_TYPE=Release']' "
     "returned non-zero exit status 1.", "extension-build-env"),
    # no distribution for Apple silicon; the user's words that there is none for this Python
    ("M1芯片的Mac上 pip安装提示没有版本可用", "unsupported-python"),
    ("I can't install on Python 3.13, pip finds nothing", "unsupported-python"),
    # torch's _preload_cuda_deps without the nvidia-* wheels
    ("ValueError: libcudnn.so.*[0-9] not found in the system path ['/app', '/usr/lib/python310.zip']",
     "known-bad-release"),
    # bitsandbytes needs CUDA, the Mac has none
    ("On my M3 Max MacBook the 4-bit model needs bitsandbytes and loading it fails", "code-requires-cuda"),
    # GLIBCXX's "not found" broken over two lines
    ("OSError: /usr/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not\nfound (required by /opt/app/libengine.so)",
     "glibcxx-too-old"),
    # Japanese wordings of WinError 182 and 193, and "DLL failed" retyped without "load"
    ("ImportError: DLL load failed while importing _core: このオペレーティング システムでは %1 は実行されません。",
     "dll-version-conflict"),
    ("OSError: [WinError 193] %1 は有効な Win32 アプリケーションではありません。", "wrong-architecture"),
    ("ImportError: DLL failed while importing _native: The specified module could not be found.",
     "missing-vc-runtime"),
    # a companion missing a symbol of torch's stable C shim
    ("OSError: /venv/lib/python3.12/site-packages/torchvision/_C.so: undefined symbol: "
     "aoti_torch_get_current_cuda_stream", "companion-mismatch"),
    # the user's words that the CPU-only build was installed
    ("With conda-forge listed first, the cpu only version of pytorch is installed.", "cpu-only-build"),
    # "if I import X first ... it works"
    ("If I import torch first and then import mylib it works, otherwise the DLL load fails", "import-order-conflict"),
    # a CUDA build on machines without CUDA, in the user's words
    ("import mxnet fails on our non-CUDA machines: libcudart.so.9.0: cannot open shared object file",
     "gpu-build-without-gpu"),
    # a package's extension module missing a procedure, in Japanese; a package's own _C imported relatively
    ("ImportError: DLL load failed while importing fused_ext: 指定されたプロシージャが見つかりません。",
     "extension-abi-mismatch"),
    ('  File "C:\\envs\\x\\lib\\site-packages\\simple_knn\\__init__.py", line 2, in <module>\n    from . import _C\n'
     "ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
     "extension-abi-mismatch"),
    # written on generation 9's first train cases (after the numbers before them were taken)
    # a package's own _C on Python 3.7 and older ("DLL load failed:" without the module); mmcv's bare _ext
    ("    from simple_knn import _C\nImportError: DLL load failed: The specified module could not be found.",
     "extension-abi-mismatch"),
    ("ImportError: DLL load failed while importing _ext: 找不到指定的程序。", "extension-abi-mismatch"),
    # two HDF5 builds in one process: h5py beside netCDF4 / PyTables, or HDF5's own version check
    ("In [1]: import netCDF4\n\nIn [2]: import h5py\nImportError: DLL load failed while importing _errors",
     "dll-version-conflict"),
    ("Warning! ***HDF5 library version mismatched error***\nThe HDF5 header files used to compile this application "
     "do not match the version used by the HDF5 library to which this application is linked.",
     "dll-version-conflict"),
    # a wrapper's own words for the native library it cannot find (sounddevice, soundfile)
    ("  File \"/venv/lib/python3.11/site-packages/soundfile.py\", line 17\nOSError: sndfile library not found",
     "missing-shared-library"),
    # sudo's pip inside an activated environment installs into the system Python
    ("Inside the activated venv I used sudo pip install -r requirements.txt, then import cv2 fails",
     "interpreter-mismatch"),
    # the import works in one folder and fails in another: a file there shadows the package
    ("It works from another directory but not inside my project folder: ImportError: cannot import name 'Tensor' "
     "from 'torch'", "shadowed-module"),
    # jax's own check finds an older CUDA library than it was built for
    ("CUDA backend failed to initialize: Unable to use CUDA because of the following issues with CUDA components:\n"
     "Outdated cuSPARSE installation found.", "cuda-toolkit-mismatch"),
    # TensorFlow names the one CUDA release's DLL it needs
    ("ImportError: Could not find 'cudnn64_7.dll'. TensorFlow requires that this DLL be installed in a directory "
     "that is named in your %PATH% environment variable.", "cuda-toolkit-mismatch"),
    # the user's words in Chinese that two packages' dependencies conflict
    ("安装paddlepaddle-gpu后提示与torch的依赖版本冲突", "requirement-conflict"),
    # MuJoCo's check for an x86_64 Python on Apple silicon
    ("gymnasium.error.DependencyNotInstalled: You are running an x86_64 build of Python on an Apple Silicon "
     "machine. This is not supported by MuJoCo.", "wrong-architecture"),
    # a compiled module built for another Python than the one running
    ("The build produced mymod.cp312-win_amd64.pyd, but python 3.11 says\nModuleNotFoundError: No module named "
     "'mymod'", "unsupported-python"),
    # torch's JIT extension build failed on this machine
    ("RuntimeError: Error building extension 'fused_adam'", "extension-build-env"),
    # torchaudio's old sox extension with its ABI tag, missing a c10 symbol
    ("ImportError: /env/lib/python3.7/site-packages/_torch_sox.cpython-37m-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c106detail14torchCheckFailEPKcS2_jS2_", "companion-mismatch"),
    # an extension package that fails to import after torch was upgraded
    ("I updated to torch 2.6.0 and now flash_attn gives DLL load failed while importing flash_attn_2_cuda",
     "extension-abi-mismatch"),
    # a package asks for another CUDA major's runtime than its torch's
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n"
     "torch 2.9.0+cu130", "extension-abi-mismatch"),
    # Omniverse's own driver check
    ("[Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver is unsupported or has known "
     "issues.", "driver-too-old"),
    # review: other spellings of the same messages
    # CMake's other words for no compiler; oneMKL's name for MKL
    ("CMake Error: CMAKE_CXX_COMPILER not set, after EnableLanguage", "extension-build-env"),
    ("Intel oneMKL ERROR: Parameter 10 was incorrect on entry to DSYRK.", "ld-library-path-override"),
    # ERROR_BAD_EXE_FORMAT as "Error code: 193" and "failed with error 193"
    ("Could not load library cudnn_ops_infer64_8.dll. Error code: 193", "wrong-architecture"),
    ("LoadLibrary failed with error 193 for cudnn64_8.dll", "wrong-architecture"),
    # the user's words with "pip" or the package named between "install" and "on/with Python"
    ("I can't pip install it on Python 3.13, it says no matching distribution", "unsupported-python"),
    ("Unable to install mediapipe with Python 3.13 - ERROR: No matching distribution found for mediapipe",
     "unsupported-python"),
    # "the cpu version" without "only"
    ("The cpu version of pytorch got installed even though I used the CUDA command", "cpu-only-build"),
    # "When I import X first", "If I put `import X` first"
    ("When I import torch first, it works. Otherwise OSError: [WinError 127] The specified procedure could not be "
     "found.", "import-order-conflict"),
    ("If I put `import torch` first it works, otherwise ImportError: DLL load failed while importing _C",
     "import-order-conflict"),
    # a first-generation Core i named without the hyphen
    ("koboldcpp closes right after loading the model. My CPU is an Intel Core i7 920, 12 GB RAM.",
     "cpu-instructions-unsupported"),
    # an add-on missing TensorFlow's typeinfo (_ZTI), not only a function
    ("ImportError: /venv/lib/python3.10/site-packages/horovod/tensorflow/mpi_lib.cpython-310-x86_64-linux-gnu.so: "
     "undefined symbol: _ZTIN10tensorflow8OpKernelE", "extension-abi-mismatch"),
    # an Atom named with its x5- prefix
    ("The app closes immediately on my Windows tablet (Intel Atom x5-Z8350)", "cpu-instructions-unsupported"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # CPUs with AVX: a four-digit Core i5, a Xeon E5 v4
    ("Intel Core i5-12400 with an RTX 3060: ImportError: DLL load failed while importing _C",
     "cpu-instructions-unsupported"),
    ("Xeon E5-2680 v4 server: RuntimeError: CUDA error: out of memory", "cpu-instructions-unsupported"),
    # an old CPU named beside an error that is no crash
    ("Tested on Xeon X5675 and on a Ryzen 9 5950X: RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
     "cpu-instructions-unsupported"),
    # failsafe tried and failing too, or not tried yet
    ("I tried the failsafe mode too and it also crashes", "cpu-instructions-unsupported"),
    ("Failsafe mode is the only one I haven't tried yet, the CUDA preset crashes", "cpu-instructions-unsupported"),
    # TensorFlow's own framework library lacking a symbol is not an add-on's
    ("libtensorflow_framework.so.2: undefined symbol: _ZN3tsl6StatusC1Ev", "extension-abi-mismatch"),
    # MKL's deprecation warning is no argument error
    ("Intel MKL WARNING: Support of Intel(R) Streaming SIMD Extensions 4.2 (Intel(R) SSE4.2) enabled only "
     "processors has been deprecated.", "ld-library-path-override"),
    # cuDNN's loader with error 126: not found, not another architecture
    ("Could not load library cudnn_cnn_infer64_8.dll. Error code 126", "wrong-architecture"),
    # an M.2 drive is no Apple chip
    ("bitsandbytes on Windows, RTX 3090, models on an M2 SSD: CUDA Setup failed despite GPU being available.",
     "code-requires-cuda"),
    # a question is no statement that the CPU build was installed
    ("Is the cpu only version of pytorch installed by default?", "cpu-only-build"),
    # importing torch first does not help
    ("If I import torch first it still fails with the same DLL error", "import-order-conflict"),
    # a module for the running Python beside the missing one is no ABI question
    ("mymod.cp311-win_amd64.pyd is there\nModuleNotFoundError: No module named 'othermod'", "unsupported-python"),
    # the same CUDA major on both sides is no build for another CUDA
    ("OSError: libcudart.so.12: cannot open shared object file (torch 2.5.1+cu124, installed with --no-deps)",
     "extension-abi-mismatch"),
    # h5py alone, with an error of the user's own
    ("import h5py\nimport numpy as np\nf = h5py.File('x.h5')\nKeyError: \"Unable to open object (object 'data' "
     "doesn't exist)\"", "dll-version-conflict"),
    # torch's stable C shim missing in the user's own extension, not a companion
    ("ImportError: /home/u/proj/build/my_ops.so: undefined symbol: aoti_torch_empty_strided", "companion-mismatch"),
    # review: look-alikes of this round's signatures
    # "no error message" and a question are no statement that the order helps
    ("If I import tensorflow first there is no error message at all, the kernel just dies.", "import-order-conflict"),
    ("If I import torch first it works? No, same crash either way.", "import-order-conflict"),
    # Python 3.8 named beside a missing procedure: another DLL build, not a missing one
    ("ImportError: DLL load failed on Python 3.8: The specified procedure could not be found.",
     "missing-shared-library"),
    # dlib built without CUDA
    ("-- DLIB_USE_CUDA=0 (no GPU here)\nImportError: DLL load failed while importing _dlib_pybind11: The specified "
     "procedure could not be found.", "missing-shared-library"),
    # TensorFlow's own _pywrap_ modules are no add-on (a mixed or broken TensorFlow install)
    ("tensorflow.python.framework.errors_impl.NotFoundError: /venv/lib/python3.10/site-packages/tensorflow/python/"
     "_pywrap_tfe.so: undefined symbol: _ZN10tensorflow8OpKernel11TraceStringERKNS_15OpKernelContextEb",
     "extension-abi-mismatch"),
    ("ImportError: dlopen(/Users/u/env/lib/python3.11/site-packages/tensorflow/python/_pywrap_tensorflow_internal.so,"
     " 0x0002): symbol not found in flat namespace '__ZN3tsl6StatusC1EN4absl12lts_2023012512StatusCodeE'",
     "extension-abi-mismatch"),
    # LAPACK fed NaN or inf: the data, not an older MKL
    ("Intel MKL ERROR: Parameter 4 was incorrect on entry to DLASCL.\nnumpy.linalg.LinAlgError: SVD did not converge "
     "in Linear Least Squares", "ld-library-path-override"),
    ("Intel MKL ERROR: Parameter 6 was incorrect on entry to DGELSD.\nValueError: array must not contain infs or NaNs",
     "ld-library-path-override"),
    # the non-CUDA machines are where it works
    ("It runs fine on our non-CUDA machines, but on the GPU nodes it fails with RuntimeError: CUDA error: no kernel "
     "image is available for execution on the device", "gpu-build-without-gpu"),
    # the Mac works; bitsandbytes fails on a Windows PC with an NVIDIA GPU
    ("On my M1 Mac everything works. On the Windows PC with an RTX 3080, bitsandbytes says CUDA Setup failed despite "
     "GPU being available.", "code-requires-cuda"),
    # advice to install the CPU build; a check that none is installed
    ("Make sure the cpu-only version of torch is installed on the CI runners, otherwise the image is 5 GB. "
     "RuntimeError: Found no NVIDIA driver on your system.", "cpu-only-build"),
    ("I checked that no cpu version of torch was installed, yet torch.cuda.is_available() is False", "cpu-only-build"),
    # cl is there, its output is not UTF-8 (a harmless warning on Chinese Windows)
    ("UserWarning: Error checking compiler version for cl: 'utf-8' codec can't decode byte 0xd3 in position 0: "
     "invalid continuation byte\nRuntimeError: CUDA error: out of memory",
     "extension-build-env"),
    # every CPU-only dlib build says it will not use CUDA
    ("-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA\nSuccessfully installed dlib-19.24.2\n"
     ">>> import face_recognition\nPlease install `face_recognition_models` with this command before using "
     "`face_recognition`", "extension-build-env"),
    # the user's CPU has AVX2
    ("Only works with AVX2 processors? My Ryzen 5 5600X has AVX2, so that's not it. The error is RuntimeError: CUDA "
     "error: out of memory", "cpu-instructions-unsupported"),
    # exit codes and "exits with <error>" are no crash
    ("CPU: Intel Celeron N4020, 4GB RAM. pip install dlib fails:\nsubprocess.CalledProcessError: Command '['cmake', "
     "'--build', '.', '--config', 'Release']' returned non-zero exit status 1.", "cpu-instructions-unsupported"),
    ("Intel Pentium G4560, GTX 1050. Training exits with RuntimeError: CUDA out of memory. Tried to allocate "
     "20.00 MiB", "cpu-instructions-unsupported"),
    ("Processor Intel(R) Core(TM) i5-760 @ 2.80GHz. pip subprocess to install build dependencies did not run "
     "successfully. exit code: 1", "cpu-instructions-unsupported"),
    # "not only the failsafe mode", "the only fail-safe way"
    ("Not only the failsafe mode, every preset crashes immediately with CUDA error.", "cpu-instructions-unsupported"),
    ("The only fail-safe way to fix this is a clean reinstall: ImportError: cannot import name 'packaging' from "
     "'pkg_resources'", "cpu-instructions-unsupported"),
    # pip itself cannot reach the index: the network, not the Python version
    ("I cannot install packages with Python 3.12 behind the proxy: SSL: CERTIFICATE_VERIFY_FAILED certificate "
     "verify failed: unable to get local issuer certificate", "unsupported-python"),
    # h5py beside PyTables / netCDF4 with an error of the user's own (no import, DLL or HDF error)
    ("import h5py\nimport tables\ndata = tables.open_file('x.h5')\nKeyError: \"Unable to open object (object "
     "'data' doesn't exist)\"", "dll-version-conflict"),
    ("import netCDF4\nimport h5py\nds = netCDF4.Dataset('x.nc')\nValueError: Error: time variable is missing",
     "dll-version-conflict"),
    # an old CPU that "never crashes" is no clue
    ("Our build farm uses Xeon X5670 nodes for the CPU jobs and they never crash; the GPU box with an i9 hits "
     "RuntimeError: CUDA error: device-side assert triggered", "cpu-instructions-unsupported"),
    # a connection or a file "closed", and sys.exit() in pasted code, are no crash
    ("Intel(R) Pentium(R) CPU G4560 @ 3.50GHz, 8 GB RAM\npip install torch fails:\nConnectionResetError: [WinError "
     "10054] An existing connection was forcibly closed by the remote host", "cpu-instructions-unsupported"),
    ("CPU: Celeron J4125\nif frame is None:\n    sys.exit(1)\nModuleNotFoundError: No module named 'cv2'",
     "cpu-instructions-unsupported"),
    ("Celeron N4020 laptop. ValueError: I/O operation on closed file.", "cpu-instructions-unsupported"),
    # failsafe also turns GPU offload off: with a CPU that has AVX2 named, the GPU backend is as likely
    ("The CUDA preset crashes, only failsafe mode works. CPU: AMD Ryzen 7 5800X, RTX 3060",
     "cpu-instructions-unsupported"),
]

HEALTHY = [
    "I can import it in the root directory but also in the sub folder, everything fine",
    "-- The CXX compiler identification is GNU 11.4.0\n-- Detecting CXX compiler ABI info - done",
    "Installed fine on Python 3.12 and 3.13, thanks!",
]


def test_a_cpu_model_with_avx_is_not_named() -> None:
    """Pentiums and Celerons since 2021 (Gold 7505, G7400) have AVX2: the model table stops before them."""
    for cpu in ("Intel(R) Pentium(R) Gold 7505", "Intel Pentium Gold G7400", "Intel Core i3-10100"):
        text = f"koboldcpp closes right after launch. CPU: {cpu}, Windows 11"
        assert "cpu-instructions-unsupported" not in shown_slugs(text)


def test_a_cuda_variant_missing_on_macos_is_no_index_question() -> None:
    """torch has no +cuXXX (nor +cpu) builds for macOS on any index: on a Mac the answer is the
    platform, not another --index-url (the same text on Linux keeps the index first)."""
    text = ("ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 (from versions: "
            "2.0.1, 2.1.0, 2.1.1, 2.1.2)\nERROR: No matching distribution found for torch==2.1.2+cu118")
    assert shown_slugs(text, os="linux")[:1] == ["wrong-index-variant"]
    assert shown_slugs(text, os="macos")[:1] == ["unsupported-python"]


def test_an_old_cpu_beside_a_dll_that_fails_to_initialise_is_named_first() -> None:
    text = ("System.DllNotFoundException: Unable to load DLL 'NativeLib': A dynamic link library (DLL) "
            "initialization routine failed.\nWorks on new machines; fails on our Xeon E5520 servers.")
    assert shown_slugs(text)[:1] == ["cpu-instructions-unsupported"]
