"""Mechanism-level rules, twentieth round (issue 14, item 2): written on generation 14's used-up
held-out cases and generation 15's train cases, each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text, facts_from_mapping
from dldoctor.explainer.platform import text_platform

# (text, the cause the mechanism implies first)
CASES = [
    # an installer's own check of the CPU
    ("ERROR:\ncannot execute native linux-aarch64 binary, output from 'uname -a' is:\n"
     "Linux pi 5.10.0 #1 SMP armv7l GNU/Linux", "wrong-architecture"),
    # OpenCV's loader meets its own module twice
    ("ImportError: ERROR: recursion is detected during loading of \"cv2\" binary extensions. "
     "Check OpenCV installation.", "duplicate-install"),
    # descriptors for shared tensors run out
    ("  File \"/usr/lib/python3.10/multiprocessing/reduction.py\", line 164, in recvfds\n"
     "    raise RuntimeError('received %d items of ancdata' %\nRuntimeError: received 0 items of ancdata",
     "dataloader-worker-crash"),
    # a torch without torch.distributed
    ("    dist.init_process_group(backend='gloo')\nRuntimeError: PyTorch built without distributed support",
     "nccl-unavailable"),
    # an extension built without its CUDA code, and a CPU package of PaddlePaddle
    ("  File \"/opt/venv/lib/python3.10/site-packages/pytorch3d/renderer/mesh/rasterize_meshes.py\", line 310\n"
     "RuntimeError: Not compiled with GPU support", "extension-build-env"),
    ("    places = fluid.cuda_places()\n  File \"paddle/fluid/framework.py\", line 612, in cuda_places\n"
     "    assert is_compiled_with_cuda(), \"Not compiled with CUDA\"\nAssertionError: Not compiled with CUDA",
     "cpu-only-build"),
    # a program's own statement of the capability it needs
    ("[miner] GPU #0: FATAL: the 'scrypt' kernel requires 6.0 capability!", "gpu-arch-unsupported"),
    ("error: this build requires compute capability 7.0 or higher; found a Tesla K40m", "gpu-arch-unsupported"),
    # Qt's plugin found and not loaded, no OpenCV in sight
    ("qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in \"\" even though it was found.\n"
     "This application failed to start because no Qt platform plugin could be initialized.",
     "missing-shared-library"),
    # the C library's release named as a need
    ("The prebuilt binary requires glibc 2.31 and our build hosts run CentOS 7.", "glibcxx-too-old"),
    ("./tool: glibc 2.28 not found", "glibcxx-too-old"),
    # the build tools named without "or greater"
    ("error: Microsoft Visual C++ 14.0 is required. Get it with \"Build Tools for Visual Studio\"",
     "extension-build-env"),
    # a removed standard-library module
    ("    import xml.etree.cElementTree as ET\nModuleNotFoundError: No module named 'xml.etree.cElementTree'",
     "unsupported-python"),
    # a package newer than the old Python that parses it
    ("  File \"/usr/lib/python2.7/site-packages/pip/_internal/cli/main.py\", line 60\n"
     "    sys.stderr.write(f\"ERROR: {exc}\")\n                                     ^\nSyntaxError: invalid syntax",
     "unsupported-python"),
    # a submodule the installed release of a library has not
    ("    from timm.layers import DropPath\nModuleNotFoundError: No module named 'timm.layers'",
     "requirement-conflict"),
    # transformers switches off a torch older than it supports
    ("Disabling PyTorch because PyTorch >= 2.1 is required but found 2.0.1\nNone of PyTorch, TensorFlow >= 2.0, "
     "or Flax have been found. Models won't be available", "requirement-conflict"),
    # conda's record of the CPU variant, and Lightning's count of no GPUs
    ("pytorch                   2.1.0           py3.11_cpu_0    pytorch\n"
     "pytorch-mutex             1.0                         cpu    pytorch", "cpu-only-build"),
    ("lightning_fabric.utilities.exceptions.MisconfigurationException: You requested GPUs: [0]\n"
     "But your machine only has: []", "cpu-only-build"),
    # NVRTC that does not know the GPU
    ("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)", "gpu-arch-unsupported"),
    # a CPU-only PaddlePaddle or PyTorch in the user's Chinese words
    ("按照requirements安装以后发现torch装的是CPU版本，没有用到显卡", "cpu-only-build"),
    # MXNet's storage and cuDNN's Lua bindings
    ("mxnet.base.MXNetError: [10:01:22] src/storage/storage.cc:43: Please compile with CUDA enabled", "cpu-only-build"),
    ("These bindings are for CUDNN 7.x (7000 <= cudnn.version > 8000) , while the loaded CuDNN is version: 8005",
     "cuda-toolkit-mismatch"),
    # spaCy pipelines of another spaCy, and PyO3 refusing a new Python
    ("OSError: [E053] Could not read config.cfg from /opt/venv/lib/python3.10/site-packages/en_core_web_md/"
     "en_core_web_md-2.3.1/config.cfg", "companion-mismatch"),
    ("✘ No compatible package found for 'de_core_news_lg' (spaCy v3.7.2)", "companion-mismatch"),
    ("  error: the configured Python interpreter version (3.14) is newer than PyO3's maximum supported version (3.13)",
     "unsupported-python"),
    # a GPU architecture named in a program's own error, and a CUDA minor's versioned symbol
    ("CUDA Error:\n    File: src/infer.cpp\n    Error code: 98\n    Error text: invalid device function",
     "gpu-arch-unsupported"),
    ("/usr/bin/ld: /opt/TensorRT-8.6/lib/libnvinfer.so: undefined reference to `nvrtcGetCUBIN@libnvrtc.so.12.0'",
     "cuda-toolkit-mismatch"),
    # a library CMake cannot find, and Tk not installed
    ("CMake Error at /usr/share/cmake-3.22/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
     "  Could NOT find CUDNN (missing: CUDNN_INCLUDE_DIR CUDNN_LIBRARY)", "extension-build-env"),
    ("    import tkinter as tk\nModuleNotFoundError: No module named 'tkinter'", "missing-shared-library"),
    ("ImportError: libtk8.6.so: cannot open shared object file: No such file or directory", "missing-shared-library"),
    # PyQt's bindings and another Qt
    ("ImportError: DLL load failed while importing QtWidgets: The specified procedure could not be found.",
     "companion-mismatch"),
    # a truncated cuDNN line
    ("E tensorflow/compiler/xla/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.1.1 but "
     "source was compiled", "cuda-toolkit-mismatch"),
    # a native addon for another Node or Electron, and one whose registration Node never saw
    ("Error: The module '/app/node_modules/sqlite3/build/Release/node_sqlite3.node'\nwas compiled against a different "
     "Node.js version using\nNODE_MODULE_VERSION 108. This version of Node.js requires\nNODE_MODULE_VERSION 115. "
     "Please try re-compiling or re-installing", "extension-abi-mismatch"),
    ("Uncaught Error: Module did not self-register: '/app/node_modules/ffi-napi/build/Release/ffi_bindings.node'.",
     "extension-abi-mismatch"),
    # a file the Linux loader cannot read as ELF
    ("Error: /srv/app/node_modules/argon2/lib/binding/napi-v3/argon2.node: invalid ELF header", "wrong-architecture"),
    # build tools and -dev packages missing
    ("gyp: No Xcode or CLT version detected!\ngyp ERR! configure error", "extension-build-env"),
    ("Package cairo was not found in the pkg-config search path.\nPerhaps you should add the directory containing "
     "`cairo.pc'", "extension-build-env"),
    ("ERROR: Use with glibc 2.17 requires manual installation of libvips >= 8.14.5", "glibcxx-too-old"),
    # a release built as Debug, Windows 7 without an API set, and R6034
    ("The code execution cannot proceed because MSVCP140D.dll was not found. Reinstalling the program may fix this "
     "problem.", "known-bad-release"),
    ("The program can't start because api-ms-win-core-path-l1-1-0.dll is missing from your computer.",
     "unsupported-python"),
    ("Runtime Error!\nProgram: C:\\Python27\\python.exe\nR6034\nAn application has made an attempt to load the C "
     "runtime library incorrectly.", "path-pollution"),
    # a release the table lists, named with its own warning
    ("UserWarning: R emitting a warning: WARNING: ignoring environment value of R_HOME\nOSError: cannot load library "
     "'/opt/R/lib64/R/lib64/libR.so': cannot open shared object file. rpy2 3.5.7", "known-bad-release"),
    # a vendored library missing from its wheel, a client library of the other bitness, 0xc000007b
    ("ImportError: libpq-a407f694.so.5.12: cannot open shared object file: No such file or directory",
     "known-bad-release"),
    ("cx_Oracle.DatabaseError: DPI-1047: 64-bit Oracle Client library cannot be loaded: \"C:\\oracle\\oci.dll is not "
     "the correct architecture\"", "wrong-architecture"),
    ("The application was unable to start correctly (0xc000007b). Click OK to close the application.",
     "missing-vc-runtime"),
    ("I did pip install chatterbox-tts and torch got installed without GPU support on my RTX 3060", "cpu-only-build"),
    # containers without the GPU, and NVML of another driver
    ("WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
     "   Use the NVIDIA Container Toolkit to start this container with GPU support", "gpu-build-without-gpu"),
    ("nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown",
     "gpu-build-without-gpu"),
    ("$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.86",
     "dll-version-conflict"),
    # resolvers, TensorFlow Addons and Keras 3
    ("So, because my-app depends on both torch (2.1.0) and numpy (2.0.0), version solving failed.",
     "requirement-conflict"),
    ("UserWarning: Tensorflow Addons supports using Python ops for all Tensorflow versions above or equal to 2.12.0 "
     "and strictly below 2.15.0 (nightly versions are not supported).", "companion-mismatch"),
    ("ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic "
     "placeholder", "companion-mismatch"),
    # a 32-bit install folder, and PySpark's two Pythons
    ("  File \"C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python311-32\\Lib\\site-packages\\jpype\\_core.py\", "
     "line 357, in startJVM\nOSError: [WinError 193] JVM DLL not found", "python-32bit"),
    ("Exception: Python in worker has different version 3.8 than that in driver 3.10, PySpark cannot run with "
     "different minor versions.", "interpreter-mismatch"),
    # Cython missing from pip's build, Cython 3 refusing old sources, a build that never ends
    ("  File \"/tmp/pip-install-abc123/pycocotools/setup.py\", line 2, in <module>\n"
     "    from Cython.Build import cythonize\nModuleNotFoundError: No module named 'Cython'", "extension-build-env"),
    ("  Getting requirements to build wheel ... error\n      Error compiling Cython file:\n"
     "      ------------------------------------------------------------", "extension-build-env"),
    ("pip install xformers==0.0.22 is stuck at building wheel for xformers since the runtime moved to Python 3.12",
     "unsupported-python"),
    # the line conda list prints for the CPU package, as the signature's comment cites it
    ("_pytorch_select           0.1                       cpu_0", "cpu-only-build"),
    # the user's sentence that installing fails on a named Python
    ("pip install open3d does not resolve when using a python 3.12 environment", "unsupported-python"),
    ("Installation failed using python 3.13 pip on Windows 11", "unsupported-python"),
    # a package that imports in conda's base environment only
    ("I can import tensorflow in the conda base environment, but not in the environment I created for the course",
     "interpreter-mismatch"),
    # a build that says which instructions it needs and the CPU lacks
    ("This program was compiled for SSE42 which is not supported on your system", "cpu-instructions-unsupported"),
    ("llama.cpp tried to run an AVX2 instruction on an AVX-only CPU and crashed", "cpu-instructions-unsupported"),
    # torch's message retold
    ("When I run it I get: torch was not compiled with CUDA support", "cpu-only-build"),
    # the user's words that two packages cannot share one process
    ("Conflict between open3d and torch imports: importing open3d first segfaults", "import-order-conflict"),
    ("TensorFlow 2.12 won't let pytorch import, it hangs if tensorflow is imported first", "import-order-conflict"),
    # an architecture named as absent from a build
    ("The aarch64 wheels do not include sm_87, so the first kernel launch fails on Jetson Orin",
     "gpu-arch-unsupported"),
    # the Windows dialog as pasted, blank lines and all, and PyTorch's message retold
    ("Runtime Error!\n\nProgram: C:\\Anaconda\\python.exe\n\nR6034\n\nAn application has made an attempt to load "
     "the C runtime\nlibrary incorrectly.", "path-pollution"),
    ("I get the error that PyTorch is not compiled with CUDA support", "cpu-only-build"),
    ("This binary was compiled to use FMA which is not supported on your system", "cpu-instructions-unsupported"),
    # written on generation 15's used-up held-out cases: the api set in other words, the JVM's
    # words for a DLL of the other bitness, a spaCy pipeline's config named by path
    ("This program can't start because api-ms-win-core-path-l1-1-1.dll is missing", "unsupported-python"),
    ("Win7运行报错，缺少api-ms-win-core-path-l1-1-0.dll", "unsupported-python"),
    ("java.lang.UnsatisfiedLinkError: C:\\libs\\tilengine.dll: Can't load IA 32-bit .dll on a AMD 64-bit platform",
     "wrong-architecture"),
    ("OSError: Could not read config.cfg from /home/u/.local/lib/python3.9/site-packages/en_core_web_sm/"
     "en_core_web_sm-2.2.5/config.cfg", "companion-mismatch"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # an installer that ran on the right machine
    ("installing: python-3.11.5-h955ad1f_0 ...\ninstallation finished.", "wrong-architecture"),
    # OpenCV's advice on a plain missing module
    ("ModuleNotFoundError: No module named 'cv2'", "duplicate-install"),
    # cv2's own Qt copy stays a copy
    ("qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in \"/home/u/.local/lib/python3.10/"
     "site-packages/cv2/qt/plugins\" even though it was found.", "missing-shared-library"),
    # torch's own message is torch's build, not an extension's
    ("AssertionError: Torch not compiled with CUDA enabled", "extension-build-env"),
    # a capability that is stated as present, and glibc named as present
    ("Device 0: NVIDIA A100, compute capability 8.0", "gpu-arch-unsupported"),
    ("ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35", "glibcxx-too-old"),
    # a module of the user's own, and a SyntaxError in the user's own script on an old Python
    ("ModuleNotFoundError: No module named 'xml.etree.cElementTreeHelpers'", "unsupported-python"),
    ("  File \"/home/u/train.py\", line 3\n    print 'hello'\n                ^\nSyntaxError: invalid syntax",
     "unsupported-python"),
    # a module of the user's own next to timm, and the CUDA variant in conda's record
    ("ModuleNotFoundError: No module named 'timm_utils'", "requirement-conflict"),
    ("pytorch-mutex             1.0                        cuda    pytorch", "cpu-only-build"),
    # a spaCy config of the user's own with a typo, and a CUDA-enabled MXNet's storage log
    ("ValueError: [E001] No component 'tagger' found in pipeline", "companion-mismatch"),
    # CMake that found it, and NCCL's own find module (a backend, not a build environment)
    ("-- Found CUDNN: /usr/lib/x86_64-linux-gnu/libcudnn.so", "extension-build-env"),
    ("Could NOT find NCCL (missing: NCCL_INCLUDE_DIR NCCL_LIBRARY)", "extension-build-env"),
    # a module named after Tk that the user wrote
    ("ModuleNotFoundError: No module named 'tkinter_helpers'", "missing-shared-library"),
    # a plain linker error in the user's own code
    ("/usr/bin/ld: main.o: undefined reference to `compute_loss(float*, int)'", "cuda-toolkit-mismatch"),
    # a Node version printed, and a pkg-config that found the package
    ("Rebuilt native modules for NODE_MODULE_VERSION 115: done", "extension-abi-mismatch"),
    ("-- Could NOT find Doxygen (missing: DOXYGEN_EXECUTABLE)\n-- Configuring done\n"
     "-- Build files have been written to: /src/build", "extension-build-env"),
    # the release runtime, named
    ("The code execution cannot proceed because MSVCP140.dll was not found.", "known-bad-release"),
    # an error code that only contains the digits
    ("HTTP error R60345 from the mirror", "path-pollution"),
    # a library of the system, not vendored, and a resolver that succeeded
    ("ImportError: libpq.so.5: cannot open shared object file: No such file or directory", "known-bad-release"),
    ("Resolving dependencies... version solving took 2.1 seconds", "requirement-conflict"),
    # a 64-bit install folder, and a container that found its GPU
    ("C:\\tools\\Python311-32bit-backup\\readme.txt", "python-32bit"),
    # a wheel that was built, and the user's own script without Cython
    ("Building wheel for lap (setup.py) ... done", "unsupported-python"),
    ("  File \"train.py\", line 3, in <module>\n    import Cython\nModuleNotFoundError: No module named 'Cython'",
     "extension-build-env"),
    # the fresh-eyes review's look-alikes: a torch that is NOT the CPU build, a question, a warning
    ("我的torch不是cpu版，是cuda 11.8版本，还是报 out of memory", "cpu-only-build"),
    ("怎么看torch是cpu版还是gpu版？", "cpu-only-build"),
    ("注意不要安装cpu版本的torch", "cpu-only-build"),
    ("'python.exe' (Win32): Loaded 'C:\\Windows\\System32\\vcruntime140d.dll'. Symbols loaded.", "known-bad-release"),
    ("WARNING: lib not found: api-ms-win-core-path-l1-1-0.dll dependency of C:\\Python310\\python310.dll\n"
     "Building EXE from EXE-00.toc completed successfully.", "unsupported-python"),
    ("    from datasets.coco import build\nModuleNotFoundError: No module named 'datasets.coco'",
     "requirement-conflict"),
    ("    import Tkinter as tk\nModuleNotFoundError: No module named 'Tkinter'", "missing-shared-library"),
    ("This program requires compute capability 3.5 or higher. Found device 0: NVIDIA A100 (compute capability 8.0)."
     " Running...", "gpu-arch-unsupported"),
    ("WARNING: ignoring environment value of R_HOME\n> library(ggplot2)", "known-bad-release"),
    ("Error: Missing dependency libfoo; system glibc 2.31", "glibcxx-too-old"),
    ("xgboost.core.XGBoostError: XGBoost version not compiled with GPU support.", "extension-build-env"),
    ("Order ref R6034 shipped; build ok", "path-pollution"),
    ("ImportError: libmylib-20230101.so: cannot open shared object file: No such file or directory",
     "known-bad-release"),
    # base named without a failure
    ("I work in the conda base environment and training runs fine", "interpreter-mismatch"),
    # a build named for its instructions, running where they exist
    ("This binary was compiled for AVX2; your CPU supports AVX2 and FMA", "cpu-instructions-unsupported"),
    # a git conflict, and a user who may not import
    ("CONFLICT (content): Merge conflict in requirements.txt", "import-order-conflict"),
    ("Windows won't let me import torch, it says access denied", "import-order-conflict"),
    # an architecture named as present
    ("Built with TORCH_CUDA_ARCH_LIST including sm_87 and sm_90; all kernels load", "gpu-arch-unsupported"),
    # the second review's look-alikes
    ("The model works well in base mode but fails in large mode; env is the same", "interpreter-mismatch"),
    ("llama.cpp compiled for AVX2 (AVX512 not supported on this runner, skipped)", "cpu-instructions-unsupported"),
    ("compiling without sm_90 since the toolkit is 11.7", "gpu-arch-unsupported"),
    ("my torch was not compiled with cuda 12.1 but with 11.8", "cpu-only-build"),
    # a config of the user's own that cannot be read
    ("OSError: Could not read config.cfg from /home/u/project/configs/config.cfg", "companion-mismatch"),
]

# words of success: no answer
HEALTHY = [
    "Using the file_system sharing strategy; 8 workers started",
    "qt.qpa.plugin: loaded platform plugin xcb",
    "Successfully installed cython-3.0.10 pycocotools-2.0.8",
    "Python in worker has version 3.10, the same as that in driver",
]


def test_a_machine_fact_names_the_os_family() -> None:
    """A corpus case or a snapshot may name the OS as a person does ("Windows 10 64bit", "Ubuntu
    20.04"); the evidence rules compare families, so a Windows-only cause keeps its weight on a
    "Windows 10 64bit" machine instead of being divided by twenty."""
    assert facts_from_mapping({"os": "Windows 10 64bit"}).os == "windows"
    assert facts_from_mapping({"os": "Ubuntu 20.04"}).os == "linux"
    assert facts_from_mapping({"os": "macOS Ventura 13.5 (ARM)"}).os == "macos"
    assert facts_from_mapping({"os": "Darwin"}).os == "macos"
    assert facts_from_mapping({"os": "a toaster"}).os is None
    # Linux under Windows or on a Mac runs Linux binaries
    assert facts_from_mapping({"os": "WSL2 (Windows 11)"}).os == "linux"
    assert facts_from_mapping({"os": "Ubuntu 22.04 (on a Mac)"}).os == "linux"
    assert facts_from_mapping({"os": "windows10"}).os == "windows"
    assert facts_from_mapping({"os": "Winning streak"}).os is None
    text = "The application was unable to start correctly (0xc000007b). Click OK to close the application."
    named = diagnose_text(text, facts=facts_from_mapping({"os": "Windows 10 64bit"}), words=False).candidates
    plain = diagnose_text(text, facts=facts_from_mapping({"os": "windows"}), words=False).candidates
    assert [(c.slug, c.confidence) for c in named] == [(c.slug, c.confidence) for c in plain]
    assert named[0].slug == "missing-vc-runtime"


def test_dyld_words_say_macos_even_beside_an_elf_file() -> None:
    """"no suitable image found" is dyld's: a Linux ELF file shipped in a macOS wheel is still a
    report from macOS, so macOS release regressions apply."""
    text = ("dlopen(/Users/u/site-packages/mxnet/libmxnet.so, 6): no suitable image found.  Did find:\n"
            "\t/Users/u/site-packages/mxnet/libmxnet.so: unknown file type, first eight bytes: 0x7F 0x45 0x4C 0x46")
    assert text_platform(text) == "macos"
    assert text_platform("OSError: libmxnet.so: cannot open shared object file") == "linux"


def test_an_install_failure_on_a_named_python_is_a_lead_only() -> None:
    """The user's words that an install fails on Python 3.x point at an unsupported Python, but an
    SSL error or a full disk says the same words: the sentence alone stays a lead (at most 0.35)."""
    for text in ("pip install torch failed: No space left on device (python 3.11)",
                 "pip install torch fails with SSL error: CERTIFICATE_VERIFY_FAILED on python 3.10"):
        assert all(c.confidence <= 0.35 for c in diagnose_text(text, words=False).candidates)


def test_the_platform_search_starting_at_its_first_hint_finds_every_form() -> None:
    """text_platform starts each OS's pattern at the first of the literals its matches begin with
    (a long log costs a substring search, not a regex scan): a hint that does not complete a match
    ("x.dlls") must not hide a later one, and each form is found on its own."""
    assert text_platform("copied x.dlls to the folder\nOSError: [WinError 126] c10.dll") == "windows"
    assert text_platform("[WinError 5] Access is denied") == "windows"
    assert text_platform("_C.cpython-38-x86_64-linux-gnu.so is there") == "linux"
    assert text_platform("version `GLIBC_2.28' not found") == "linux"
    assert text_platform("a .so file and a .dll file, no error") == "windows"
    assert text_platform("nothing about libraries") is None
