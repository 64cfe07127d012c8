"""Mechanism-level rules, eighteenth round (issue 14, item 2): written on generation 13's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # CMake's CUDA language setup
    ("CMake Error at CMakeLists.txt:12 (project):\n  CMAKE_CUDA_ARCHITECTURES must be valid if set.",
     "extension-build-env"),
    ("-- The CUDA compiler identification is unknown\nCMake Error: No CMAKE_CUDA_COMPILER could be found.",
     "extension-build-env"),
    # mujoco-py wants the MuJoCo release it was written for
    ("I have mujoco210 installed\nYou appear to be missing MuJoCo.  We expected to find the file here: "
     "/home/u/.mujoco/mjpro150", "companion-mismatch"),
    ("Exception: \nYou appear to be missing MuJoCo.  We expected to find the file here: /root/.mujoco/mujoco210",
     "missing-shared-library"),
    # jaxlib built for another CUDA runtime
    ("INTERNAL: CustomCall failed: jaxlib/gpu/prng_kernels.cc:33: operation gpuGetLastError() failed: "
     "cudaGetErrorString symbol not found.", "cuda-toolkit-mismatch"),
    # another ggml build loaded first
    ("./build/bin/llama-server: symbol lookup error: ./build/src/libllama.so: undefined symbol: "
     "ggml_backend_dev_count", "dll-version-conflict"),
    # torchaudio without an I/O backend
    ("RuntimeError: Couldn't find appropriate backend to handle uri out.wav and format None.",
     "missing-shared-library"),
    # ROS's scripts under another Python
    ("  File \"/opt/ros/noetic/lib/python3/dist-packages/roslaunch/__init__.py\"\n"
     "ModuleNotFoundError: No module named 'rospkg'", "interpreter-mismatch"),
    # a CPU LLM runner quitting silently
    ("I run ./koboldcpp.exe with a q4_0 gguf model and it closes immediately without any error.",
     "cpu-instructions-unsupported"),
    # the driver's unversioned link
    ("OSError: libcuda.so: cannot open shared object file: No such file or directory\n(WSL 2, driver works)",
     "missing-shared-library"),
    ("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory",
     "gpu-build-without-gpu"),
    # a GPU older than a feature needs
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "gpu-arch-unsupported"),
    ("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 "
     "GPU has compute capability 7.5.", "gpu-arch-unsupported"),
    # triton's helper fails to link libcuda
    ("/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
     "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpab/main.c', '-lcuda', '-o', "
     "'/tmp/tmpab/cuda_utils.cpython-311-x86_64-linux-gnu.so']' returned non-zero exit status 1.",
     "missing-shared-library"),
    # edge runtimes and their model files
    ("E RKNN: [10:01:02.123] Invalid RKNN model version 6\nrknn_init fail! ret=-1", "companion-mismatch"),
    ("RuntimeError: Internal: Unsupported data type in custom op handler: 0Node number 1 "
     "(EdgeTpuDelegateForCustomOp) failed to prepare.", "companion-mismatch"),
    ("[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization (Serialization "
     "assertion stdVersionRead == serializationVersion failed.Version tag does not match.", "companion-mismatch"),
    ("[ ERROR ] Error reading network: cannot parse future versions: 11", "companion-mismatch"),
    ("Didn't find op for builtin opcode 'FULLY_CONNECTED' version '9'. An older version of this builtin might "
     "be supported. Are you using an old TFLite binary with a newer model?", "companion-mismatch"),
    ("[HailoRT] [error] CHECK failed - Driver version (4.20.0) is different from library version (4.18.0)",
     "companion-mismatch"),
    # a dependency's removed names
    ("AttributeError: module 'onnx' has no attribute 'mapping'", "requirement-conflict"),
    # (NumPy's own removals are filed as numpy-abi-mismatch since round 23, as the corpus files them)
    ("  File \"/venv/lib/python3.10/site-packages/imgaug/augmenters/meta.py\", line 3368\n"
     "AttributeError: module 'numpy' has no attribute 'bool'.", "numpy-abi-mismatch"),
    ("AttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'", "requirement-conflict"),
    # build tools that are not there
    ("FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", "extension-build-env"),
    ("unable to execute 'x86_64-linux-gnu-gcc': No such file or directory\nerror: command "
     "'x86_64-linux-gnu-gcc' failed with exit status 1", "extension-build-env"),
    ("RuntimeError:\n  CMake must be installed to build the following extensions: _dlib_pybind11",
     "extension-build-env"),
    # a PyG extension without its CUDA library
    ("  File \"/opt/venv/lib/python3.10/site-packages/torch_scatter/__init__.py\", line 16, in <module>\n"
     "    f'{library}_{suffix}', [osp.dirname(__file__)]).origin)\n"
     "AttributeError: 'NoneType' object has no attribute 'origin'", "extension-build-env"),
    # Vulkan without the NVIDIA ICD
    ("vkCreateInstance failed -9\ninvalid gpu device", "missing-shared-library"),
    # accelerator plugins out of pair
    ("AttributeError: module 'torch_npu' has no attribute 'npu_rotary_mul'", "companion-mismatch"),
    ("ModuleNotFoundError: No module named 'torch_npu._C'", "shadowed-module"),
    # LM Studio on a CPU without AVX2
    ("LM Studio 0.3.5 on Windows 10: No hardware detected, no models load", "cpu-instructions-unsupported"),
    # install failures in the user's words
    ("ERROR: mlx-0.15.0-cp311-cp311-macosx_14_0_arm64.whl is not a supported wheel on this platform.",
     "wrong-architecture"),
    ("the installer fails with python higher than 3.11", "unsupported-python"),
    ("installation if Python higher then 3.11", "unsupported-python"),
    ("python 3.12 can't install mediapipe, pip install mediapipe gives an error", "unsupported-python"),
    ("ERROR: Could not find a version that satisfies the requirement mediapipe (from versions: none)\n"
     "ERROR: No matching distribution found for mediapipe", "unsupported-python"),
    ("error: building failed: nvcc not found, is CUDA_HOME set?", "extension-build-env"),
    ("I made a Lambda layer with pip install numpy -t python\n[ERROR] Runtime.ImportModuleError: Unable to "
     "import module 'app': Error importing numpy: you should not try to import numpy from its source "
     "directory; please exit the numpy source tree", "wrong-architecture"),
    # torch's own shm hint, nvidia-docker 1.0's driver check
    ("RuntimeError: DataLoader worker (pid 123) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory. Please try to raise your shared memory limit.", "dataloader-worker-crash"),
    ("nvidia-docker | 2018/01/02 10:00:00 Error: unsupported CUDA version: driver 9.0 < image 10.0.130",
     "driver-too-old"),
    # two import orders shown
    ("This crashes:\n\nimport open3d\nimport torch\n\nThis works:\n\nimport torch\nimport open3d\n",
     "import-order-conflict"),
    # old Keras with h5py 3
    ("    original_keras_version = f.attrs['keras_version'].decode('utf8')\n"
     "AttributeError: 'str' object has no attribute 'decode'", "requirement-conflict"),
    # sam2's check, editors with their own Python, Code Runner's python
    ("RuntimeError: You're likely running Python from the parent directory of the sam2 repository",
     "shadowed-module"),
    ("I installed requests with pip, but running my script in Thonny gives ModuleNotFoundError: No module "
     "named 'requests'", "interpreter-mismatch"),
    ("Mu 1.2.0 on Windows\nModuleNotFoundError: No module named 'openpyxl'", "interpreter-mismatch"),
    ("I'm a fooocus user on amd and it says I am missing the nvidia driver", "code-requires-cuda"),
    ("[Running] python -u \"/home/u/a.py\"\n  File \"/home/u/a.py\", line 3\n    print(f'{x}')\n"
     "                ^\nSyntaxError: invalid syntax", "interpreter-mismatch"),
    # older dyld's words, sharp's binding
    ("dlopen(/opt/env/lib/libpython3.9.dylib, 10): no suitable image found.  Did find:\n"
     "\t/opt/env/lib/libpython3.9.dylib: mach-o, but wrong architecture", "wrong-architecture"),
    ("Error: Could not load the \"sharp\" module using the linux-arm64 runtime", "wrong-architecture"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # CMake setting the architectures and going on
    ("-- Setting CMAKE_CUDA_ARCHITECTURES to 86\n-- Configuring done", "extension-build-env"),
    # a ggml symbol missing that is the user's own function
    ("undefined symbol: my_ggml_helper in libmine.so", "dll-version-conflict"),
    # torchaudio saving fine
    ("torchaudio.save('out.wav', wav, 16000) finished: backend soundfile", "missing-shared-library"),
    # a CPU LLM runner that quits with a clear error
    ("llama.cpp exits with error: failed to load model 'x.gguf': out of memory", "cpu-instructions-unsupported"),
    # a feature check that passes
    ("Your NVIDIA A100 GPU has compute capability 8.0; using bfloat16", "gpu-arch-unsupported"),
    # an engine rebuilt and loaded
    ("[TRT] Loaded engine size: 45 MiB\n[TRT] Deserialization required 2000 microseconds.", "companion-mismatch"),
    # a user's own module's attribute
    ("AttributeError: module 'mapping' has no attribute 'onnx'", "requirement-conflict"),
    ("AttributeError: module 'numpy' has no attribute 'bool_x'", "requirement-conflict"),
    # nvcc found and failing on the code
    ("/usr/local/cuda/bin/nvcc -c kernel.cu -o kernel.o\nkernel.cu(12): error: identifier \"foo\" is undefined",
     "missing-shared-library"),
    # only one import order shown
    ("This crashes:\n\nimport open3d\nimport torch\n", "import-order-conflict"),
    # an arm64 wheel installing fine
    ("Successfully installed mlx-0.15.0 (mlx-0.15.0-cp311-cp311-macosx_14_0_arm64.whl)", "wrong-architecture"),
    # mediapipe installed, its import failing on a DLL
    ("pip install mediapipe\nSuccessfully installed mediapipe-0.10.14\nImportError: DLL load failed while "
     "importing _framework_bindings: A dynamic link library (DLL) initialization routine failed.",
     "unsupported-python"),
    # Thonny named, no module missing
    ("Thonny 4.1 shows: SyntaxError: invalid syntax on line 3", "interpreter-mismatch"),
    # the fresh-eyes review's look-alikes
    ("gguf conversion finished. The script exits without errors.", "cpu-instructions-unsupported"),
    ("llama.cpp server stops without errors after the request completes", "cpu-instructions-unsupported"),
    ("I tried both orders and it fails either way:\n\nimport open3d\nimport torch\n\nstill fails:\n\n"
     "import torch\nimport open3d\n", "import-order-conflict"),
    ("Both orders work fine:\nimport torch\nimport cv2\nworks too:\nimport cv2\nimport torch\n",
     "import-order-conflict"),
    ("I'm on AMD with an RTX 3080 and the training is slow", "code-requires-cuda"),
    ("This user on AMD reported the same error: Torch not compiled with CUDA enabled", "code-requires-cuda"),
    ("warning: nvcc not found, compiling only for CPU; build succeeded", "extension-build-env"),
    ("-- nvcc not found; building without CUDA support\n-- Build files have been written to: /src/build",
     "extension-build-env"),
    ("Error: Version tag does not match the version in package.json (v1.2.3 != 1.2.4)", "companion-mismatch"),
    ("pip install mediapipe==0.10.14 then run; error: camera not found", "unsupported-python"),
    ("pip install mediapipe; python demo.py -> error: AttributeError: module 'mediapipe' has no attribute "
     "'solutions'", "unsupported-python"),
    ("[Running] python -u \"/home/u/a.py\"\n  File \"/home/u/a.py\", line 3\n    print(x\n        ^\n"
     "SyntaxError: invalid syntax", "interpreter-mismatch"),
    ("Step 3/9 : COPY layer /opt/layer\nError importing numpy: you should not try to import numpy from its source "
     "directory; please exit the numpy source tree", "wrong-architecture"),
    ("  File \"/home/u/keras_project/utils.py\", line 9\nAttributeError: 'str' object has no attribute 'decode'",
     "requirement-conflict"),
    ("this project works with python greater than 3.8", "unsupported-python"),
    ("Warning: FlashAttention only supports Ampere GPUs or newer. Using SDPA instead.\n"
     "ModuleNotFoundError: No module named 'einops'", "gpu-arch-unsupported"),
    ("vkCreateInstance failed -9 on macOS (MoltenVK): enable VK_KHR_portability_enumeration",
     "missing-shared-library"),
    ("AttributeError: module 'intel_extension_for_pytorch' has no attribute 'xpu'", "companion-mismatch"),
]

HEALTHY = [
    "-- Detecting CUDA compiler ABI info - done\n-- The CUDA compiler identification is NVIDIA 12.4.131",
    "[TRT] [I] Loaded engine size: 45 MiB",
]


def test_the_unversioned_libcuda_link_is_not_the_missing_driver() -> None:
    """libcuda.so.1 is the driver; a missing unversioned libcuda.so is a missing link (WSL,
    containers), so the two names rank different causes first."""
    from dldoctor.explainer import diagnose_text

    link = diagnose_text("OSError: libcuda.so: cannot open shared object file: No such file or directory").shown
    driver = diagnose_text("OSError: libcuda.so.1: cannot open shared object file: No such file or directory").shown
    assert link[0].slug == "missing-shared-library"
    assert driver[0].slug == "gpu-build-without-gpu"


def test_a_32_bit_interpreter_puts_its_bits_before_its_version() -> None:
    """A release missing for a 32-bit Python is first its bits, whatever the text says of the version."""
    from dldoctor.explainer import diagnose_text
    from dldoctor.explainer.weigh import Facts

    text = "Unable to install mediapipe\nERROR: No matching distribution found for mediapipe"
    assert diagnose_text(text).shown[0].slug == "unsupported-python"
    assert diagnose_text(text, facts=Facts(python_bits="32")).shown[0].slug == "python-32bit"


def test_momentum_named_mu_is_not_the_mu_editor() -> None:
    """"mu 0.9" in a training log is a momentum, not the Mu editor with its own Python; the
    editor's name is read with its capital and a 1.x version, or as "Mu editor"."""
    from dldoctor.explainer.match import find_hits
    from dldoctor.explainer.signatures import load_signatures

    sid = "bundled-python-editor-module-missing"
    log = "Optimizer: SGD lr 0.01 mu 0.9\nModuleNotFoundError: No module named 'wandb'"
    editor = "Running my script in Mu 1.2.0\nModuleNotFoundError: No module named 'wandb'"
    assert sid not in find_hits(log, load_signatures())
    assert sid in find_hits(editor, load_signatures())
