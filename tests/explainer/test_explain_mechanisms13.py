"""Mechanism-level rules, thirteenth round (issue 14, item 2): the wrong assumptions generation 10's
train cases showed (their "before" numbers taken first), each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # NVIDIA's container runtime: the image's CUDA is newer than the host driver supports
    ("docker: Error response from daemon: failed to create task for container\n"
     "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver "
     "to a newer version, or use an earlier cuda container: unknown.", "driver-too-old"),
    # a GPU generation the user asks the project to support
    ("Outputs are garbage on my Tesla V100. Could you support Volta GPUs?", "gpu-arch-unsupported"),
    ("Pascal support? The kernels crash on a GTX 1080", "gpu-arch-unsupported"),
    # another application's Python picked up from PATH
    ("the installer keeps using the python.exe from QGIS, so torch installs into the wrong place",
     "interpreter-mismatch"),
    ("Blender's bundled python is used instead of my Python 3.10 when I run the script", "interpreter-mismatch"),
    # a +cpu build on a machine with an NVIDIA card
    (">>> torch.__version__\n'2.5.1+cpu'\n>>> torch.cuda.is_available()\nFalse\n"
     "my laptop has an NVIDIA GeForce RTX 4060", "cpu-only-build"),
    # the IDE's runner uses another interpreter than the selected one
    ("Running with Code Runner gives ModuleNotFoundError: No module named 'torch', the terminal works",
     "interpreter-mismatch"),
    ("It seems PyCharm is still using the system python, not my venv: ModuleNotFoundError: No module named 'torch'",
     "interpreter-mismatch"),
    # a build that fails for the Python version, in the user's words
    ("Fails to install with Python 3.13: torch is not found", "unsupported-python"),
    # the DataLoader's shared-memory files cannot be written: /dev/shm is full (a container's 64 MB)
    ("  File \"/usr/lib/python3.10/multiprocessing/queues.py\", line 244, in _feed\n"
     "RuntimeError: unable to write to file </torch_112_3310254597_0>: No space left on device (28)",
     "dataloader-worker-crash"),
    ("RuntimeError: unable to open shared memory object </torch_4419_2811931204> in read-write mode",
     "dataloader-worker-crash"),
    # torch 2.4.0 on Windows computed wrong on the CPU: a flood of detections, no error at all
    ("image 1/1 C:\\work\\street.jpg: 640x384 212 persons, 97 cars, 12 dogs, 511.0ms\n"
     "Speed: 4.1ms preprocess, 511.0ms inference", "known-bad-release"),
    ("Since the update the detector returns hundreds of false detections on every picture", "known-bad-release"),
    # NVRTC older than the GPU it is asked to compile for
    ("nvrtc: error: invalid value for --gpu-architecture (-arch)\noptions: --gpu-architecture=sm_90 -std=c++17\n"
     "RuntimeError: NVRTC_ERROR_INVALID_OPTION", "cuda-toolkit-mismatch"),
    # RAPIDS has no code for GPUs before Pascal
    ("import cudf\nRuntimeError: This cuDF installation is missing the necessary PTX files that are <=52.",
     "gpu-arch-unsupported"),
    # DGL's CPU build asked for a GPU
    ("dgl._ffi.base.DGLError: Check failed: allow_missing: Device API cuda is not enabled.", "cpu-only-build"),
    # a torch symbol missing from a companion's own DLL: built against another torch
    ("The procedure entry point aoti_torch_empty_strided could not be located in the dynamic link library "
     "C:\\comfy\\python_embeded\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd.dll",
     "extension-abi-mismatch"),
    # Windows' own, older onnxruntime.dll in System32 found first
    ("System.EntryPointNotFoundException: Unable to find an entry point named 'OrtGetApiBase' in DLL 'onnxruntime'.",
     "dll-version-conflict"),
    ("The requested API version [22] is not available, only API versions [1, 16] are supported in this build.",
     "dll-version-conflict"),
    # R's reticulate bound to another Python than the one holding the package
    ("Error: Python module tensorflow was not found.\n\nDetected Python configuration:\n\npython: /usr/bin/python3",
     "interpreter-mismatch"),
    # an old CPU named beside TensorFlow's exception
    ("CPU: Intel(R) Core(TM)2 Quad CPU Q6600\nTensorflow exception triggered while loading model",
     "cpu-instructions-unsupported"),
    # pip's isolated build has no torch for setup.py
    ("  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n"
     "      ModuleNotFoundError: No module named 'torch'", "extension-build-env"),
    # a user-site launcher run from inside a project venv
    ("$ uv run torchrun train.py\n  File \"/home/ana/.local/bin/torchrun\", line 5, in <module>\n"
     "ModuleNotFoundError: No module named 'myproject'", "user-site-shadowing"),
    # a CUDA tensor handed to a spawned process where IPC is not available
    ("mp.set_start_method('spawn')\np.start()\nRuntimeError: CUDA error: invalid resource handle",
     "cuda-ipc-unsupported"),
    # torch 2.3.0 removed a name torchdata imports
    ("ImportError: cannot import name 'DILL_AVAILABLE' from 'torch.utils.data.datapipes.utils.common'",
     "known-bad-release"),
    # Keras 3 under transformers' TensorFlow models; Keras and TensorFlow of two releases
    ("ValueError: Your currently installed version of Keras is Keras 3, but this is not yet supported in "
     "Transformers. Please install the backwards-compatible tf-keras package", "companion-mismatch"),
    ("from keras import layers\nAlreadyExistsError: Another metric with the same name already exists.",
     "companion-mismatch"),
    # the retired tensorflow-gpu name
    ('Exception:\n  The "tensorflow-gpu" package has been removed!\n  Please install "tensorflow" instead.',
     "wrong-index-variant"),
    # a dated nightly that breaks on import
    ("pip install tf-nightly==2.16.0.dev20231102\npython -c 'import tensorflow'\n"
     "AttributeError: module 'tensorflow' has no attribute 'compat'", "known-bad-release"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # the container runtime's other requirement (a driver branch), not a CUDA version
    ("nvidia-container-cli: requirement error: unsatisfied condition: brand = tesla", "driver-too-old"),
    # a statement that a generation is supported, not a question
    ("Turing GPUs are supported since release 1.2; my 2080 Ti works", "gpu-arch-unsupported"),
    # a Blender add-on that installs into Blender's Python on purpose
    ("I use Blender's Python API to render the scene; the add-on works", "interpreter-mismatch"),
    # a +cpu build chosen on purpose on a machine whose GPU is not NVIDIA
    ("torch 2.5.1+cpu on a Radeon RX 7900, runs fine for inference", "cpu-only-build"),
    # a sentence about the system Python that says nothing about which one runs
    ("I installed the system python from python.org and then created a venv", "interpreter-mismatch"),
    # a full disk elsewhere is no shared-memory question
    ("OSError: [Errno 28] No space left on device: '/root/.cache/huggingface/hub'", "dataloader-worker-crash"),
    # a listed release beside a failure that is no failed load: not that release's regression
    ("torch 2.4.0+cu121 on Windows 11\nAssertionError: Torch not compiled with CUDA enabled", "known-bad-release"),
    # a model that finds many objects in a crowded picture, without complaint
    ("image 1/1 crowd.jpg: 640x640 8 persons, 2 bicycles, 120.5ms", "known-bad-release"),
    # an entry point of the framework's own DLL: its own libraries disagree, no companion involved
    ("The procedure entry point ?warning_handler@c10@@YAPEAVWarningHandler@1@XZ could not be located in the "
     "dynamic link library C:\\venv\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll", "extension-abi-mismatch"),
    # a user-site launcher with no environment in sight is just where pip --user put it
    ('  File "/home/ana/.local/bin/huggingface-cli", line 8, in <module>\nOSError: libcudart.so.12: cannot open '
     "shared object file", "user-site-shadowing"),
    # an invalid resource handle in one process (a stream or event of another device)
    ("torch.cuda.synchronize()\nRuntimeError: CUDA error: invalid resource handle", "cuda-ipc-unsupported"),
    # the nightly named, the import fine
    ("I use tf-nightly 2.16.0.dev20231102 and everything imports fine", "known-bad-release"),
    # a build step that fails for a compiler, not for torch
    ("  Getting requirements to build wheel ... error\n  error: Microsoft Visual C++ 14.0 or greater is required.",
     "interpreter-mismatch"),
    # self-review (a fresh reviewer's look-alikes): a crowded frame, a quality question, a model's own
    # TypeError on a nightly, the default interpreter that works, Blender's Python used on purpose,
    # a +cpu build replaced by a CUDA one, a supported generation that works, DDP on Linux, pip's
    # metadata step that succeeded, a compiler that failed on some Python, /dev/shm ruled out
    ("image 1/1 street.jpg: 640x640 152 persons, 23.1ms", "known-bad-release"),
    ("my detector gives a large number of false positives on dark images, how do I tune it?", "known-bad-release"),
    ("pip install torch==2.6.0.dev20241112\nmodel(x)\n"
     "TypeError: forward() takes 2 positional arguments but 3 were given", "known-bad-release"),
    ("VS Code was using the default python 3.11 interpreter and everything works fine", "interpreter-mismatch"),
    ("I use the python from Blender to run my add-on, how do I pip install numpy into it?", "interpreter-mismatch"),
    ("I switched from torch 2.6.0+cpu to 2.6.0+cu124 and now it works on my GeForce RTX 3060", "cpu-only-build"),
    ("Does it support Turing GPUs? I ran it on my T4 and it works great", "gpu-arch-unsupported"),
    ("torch.multiprocessing.spawn(main, nprocs=4)\n  File \"/usr/lib/python3.10/multiprocessing/process.py\"\n"
     "RuntimeError: CUDA error: invalid resource handle", "cuda-ipc-unsupported"),
    ("Preparing metadata (pyproject.toml) ... done\nSuccessfully installed mypkg\n$ python app.py\n"
     "ModuleNotFoundError: No module named 'torch'", "extension-build-env"),
    ("Failed to build pycocotools with python 3.11: error: Microsoft Visual C++ 14.0 or greater is required",
     "unsupported-python"),
    ("No space left on device is not the issue here, /dev/shm has 16G free", "dataloader-worker-crash"),
    # a build that fails for want of a compiler, whatever the Python version
    ("pip install fails to build with python 3.12: error: Microsoft Visual C++ 14.0 or greater is required.",
     "unsupported-python"),
]

HEALTHY = [
    "Found 5 faces in the photo, all correct",
    "df -h /dev/shm\nshm  16G  1.2G  15G  8% /dev/shm",
    "Code Runner works fine now with the venv's interpreter selected, thanks",
]


def test_the_container_requirement_names_the_cuda_it_wants() -> None:
    """The subject shown is the CUDA release the image needs."""
    text = "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver"
    top = diagnose_text(text).shown[0]
    assert top.slug == "driver-too-old"
    assert ("version", "12.4") in [pair for hit in top.hits for pair in hit.subject]


def test_a_cudnn_built_for_another_release_names_the_toolkit_too() -> None:
    """cuDNN's "compiled with" check: a second copy on the path first, and the only cuDNN being
    another release (the toolkit mismatch) among the top three."""
    text = ("E external/xla/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.4.1 but source "
            "was compiled with: 8.6.0.  CuDNN library needs to have matching major version")
    assert "cuda-toolkit-mismatch" in shown_slugs(text)[:3]


def test_the_windows_libuv_default_names_the_release() -> None:
    """torch 2.4's libuv default on Windows: the distributed limits first, the release among them."""
    ranked = shown_slugs("RuntimeError: use_libuv was requested but PyTorch was build without libuv support")
    assert ranked[0] == "nccl-unavailable" and "known-bad-release" in ranked[:3]
