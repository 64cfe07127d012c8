"""Mechanism-level rules, tenth round (issue 14, item 2): the wrong assumptions generation 7's
held-out cases showed once they were measured and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # Rust's spelling of Windows error 1455 (safetensors, tokenizers)
    ("Error: failed to map the model file (os error 1455)", "pagefile-too-small"),
    # "invalid device function" in a project's own CUDA check macro
    ("GPUassert: cudaCheckError() failed : invalid device function src/nms_kernel.cu 103", "gpu-arch-unsupported"),
    # CUDA error 35 worded without "CUDA" before "runtime"
    ("Check failed: error 35: CUDA driver version is insufficient for runtime version", "driver-too-old"),
    # the NVIDIA kernel module is not loaded
    ("modprobe: ERROR: could not insert 'nvidia_uvm': Unknown symbol in module", "gpu-build-without-gpu"),
    # TensorFlow cannot use the cuDNN it found
    ("tensorflow.python.framework.errors_impl.UnimplementedError: DNN library is not found.\n"
     "\t [[node sequential/conv2d/Conv2D]]", "cuda-toolkit-mismatch"),
    # rocBLAS has no kernels for the card's gfx target
    ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory "
     "for GPU arch : gfx1103", "gpu-arch-unsupported"),
    # HIP could not initialise the card
    ("UserWarning: HIP initialization: Unexpected error from hipGetDeviceCount(). Did you run some cuda functions "
     "before calling NumHipDevices() that might have already set an error?", "gpu-arch-unsupported"),
    # jax's CUDA plugin installed but a CUDA library did not load: not a CPU-only jaxlib
    ("RuntimeError: Unable to load cuDNN. Is it installed?\nWARNING: An NVIDIA GPU may be present on this machine, "
     "but a CUDA-enabled jaxlib is not installed. Falling back to cpu.", "ld-library-path-override"),
    # the user's complaint alone
    ("Training is slow, it doesn't use my GPU at all (RTX 3060), task manager shows 0%", "cpu-only-build"),
    # NCCL asked for on Windows, in the user's words
    ("Training fails because NCCL is not supported on Windows, can you switch to gloo?", "nccl-unavailable"),
    # a Python 3.12+ venv has no setuptools
    ('Using python: "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python313\\python.exe"\n'
     "ModuleNotFoundError: No module named 'pkg_resources'", "unsupported-python"),
    # a portable Python importing the per-user site
    ("D:\\ComfyUI\\python_embeded\\python.exe -s ComfyUI\\main.py\n"
     '  File "C:\\Users\\me\\AppData\\Roaming\\Python\\Python312\\site-packages\\numpy\\__init__.py", line 9',
     "user-site-shadowing"),
    # two variants of one package, each on its own line of pip list
    ("pip list:\nonnxruntime            1.17.1\nonnxruntime-gpu        1.17.1\nonly CPUExecutionProvider shows up",
     "duplicate-install"),
    # opencv's own cv2 half-imported: two opencv wheels in one folder
    ('  File "/home/u/.venv/lib/python3.10/site-packages/cv2/__init__.py", line 181, in bootstrap\n'
     "    import cv2\nAttributeError: partially initialized module 'cv2' has no attribute '_registerMatType' "
     "(most likely due to a circular import)", "duplicate-install"),
    # Poetry finds no wheel for this Python or platform
    ("  - 12 wheel(s) were skipped as your project's environment does not support the identified abi tags",
     "unsupported-python"),
    # coremltools without its native part for this Python
    ("Exception: Unable to load any compiled models. This is most likely because coremltools was installed from "
     "an egg rather than a wheel.", "unsupported-python"),
    # macOS: a companion wants a torch symbol the installed torch lacks
    ("ImportError: dlopen(/Users/u/venv/lib/python3.12/site-packages/torchvision/_C.so, 0x0002): Symbol not found: "
     "__ZN3c1017RegisterOperatorsD1Ev\n  Referenced from: <0A1B> /Users/u/venv/lib/python3.12/site-packages/"
     "torchvision/_C.so\n  Expected in: <2C3D> /Users/u/venv/lib/python3.12/site-packages/torch/lib/libc10.dylib",
     "companion-mismatch"),
    # an onnxruntime without the provider asked for
    ("UserWarning: Specified provider 'DmlExecutionProvider' is not in available provider names.Available "
     "providers: 'AzureExecutionProvider, CPUExecutionProvider'", "cpu-only-build"),
    ("RuntimeError: Unknown provider type: dml", "cpu-only-build"),
    # "run it on AMD"
    ("How do I run it on AMD? torch.cuda.is_available(): False", "code-requires-cuda"),
    # a torch vtable (_ZTV...) undefined: built against another torch
    ("ImportError: libmyops.so: undefined symbol: _ZTVN5torch8autograd12AutogradMetaE", "extension-abi-mismatch"),
    # written on generation 8's first train cases (after the numbers before them were taken)
    # Paddle's own CPU check, and the kernel's line for SIGILL
    ("Error: AVX is not supported on your machine, but you have installed paddlepaddle with avx core",
     "cpu-instructions-unsupported"),
    ("kernel: traps: infer[4242] trap invalid opcode ip:7f3a1c sp:7ffd error:0 in libmodel.so[7f3a00000+200000]",
     "cpu-instructions-unsupported"),
    # Umi-OCR's Paddle engine that cannot start
    ("PaddleOCR-json.exe: The application was unable to start correctly (0xc0000142).", "cpu-instructions-unsupported"),
    # Triton's run-time C helper that the machine cannot compile
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nCalledProcessError: Command "
     "'['gcc', '/tmp/tmpab12/cuda_utils.c', '-O3', '-shared', '-lcuda']' returned non-zero exit status 1.",
     "extension-build-env"),
    # a package's extension module built for another torch, on Windows
    ("ImportError: DLL load failed while importing flashattn_kernels: The specified procedure could not be found.",
     "extension-abi-mismatch"),
    # a tool's own words on the Python version
    ("RuntimeError: mytool requires python >= 3.8 and < 3.11 but your Python version is 3.11.4", "unsupported-python"),
    ("Python 3.13 is not yet supported by this release", "unsupported-python"),
    ("ValueError: mutable default <class 'lib.config.Model'> for field model is not allowed: use default_factory",
     "unsupported-python"),
    # Windows ending the process while it maps a model's shards
    ("Loading checkpoint shards:   0%|          | 0/4 [00:00<?, ?it/s]\nPress any key to continue . . .",
     "pagefile-too-small"),
    # uv finds no wheel for this Python or platform
    ("error: Distribution `torch==2.6.0 @ registry+https://pypi.org/simple` can't be installed because it doesn't "
     "have a source distribution or wheel for the current platform", "unsupported-python"),
    # Poetry or PDM reading torch 2.0.1's PyPI record, which lacked the nvidia-* dependencies
    ("pdm add torch==2.0.1\nValueError: libcublas.so.*[0-9] not found in the system path", "known-bad-release"),
    # the user's words that the CPU build was installed
    ("pip install -r requirements.txt installed the CPU version of torch although I have an RTX 4080",
     "cpu-only-build"),
    # musl (Alpine) given a glibc build
    ("ImportError: Error loading shared library ld-linux-x86-64.so.2: No such file or directory (needed by "
     "/usr/lib/python3.12/site-packages/onnxruntime/capi/onnxruntime_pybind11_state.so)", "glibcxx-too-old"),
    ("Error relocating /usr/local/lib/libfoo.so: unsupported relocation type 7", "wrong-architecture"),
    # one release fails where the others work
    ("TensorFlow 2.15 does not see my GPU. Older versions do.", "known-bad-release"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # pkg_resources missing on a Python that still seeds setuptools
    ('  File "/usr/lib/python3.10/site-packages/tool/cli.py", line 3\n'
     "ModuleNotFoundError: No module named 'pkg_resources'", "unsupported-python"),
    # a conda spec naming both variants is a request, not two installs
    ("conda install tensorflow=1.3 tensorflow-gpu=1.3\nUnsatisfiableError: The following specifications were "
     "found to be incompatible with each other", "duplicate-install"),
    # a release the user compares with another, in prose
    ("onnxruntime 1.18.1 breaks here; onnxruntime-gpu 1.17.3 was fine last week", "duplicate-install"),
    # an AMD CPU is no AMD GPU
    ("I train on AMD Ryzen 9 7950X with an RTX 4090, torch.cuda.is_available(): False", "code-requires-cuda"),
    # the user's own cv2.py
    ('  File "/home/u/proj/cv2.py", line 1, in <module>\n    import cv2\nAttributeError: partially initialized '
     "module 'cv2' has no attribute 'imread' (most likely due to a circular import)", "duplicate-install"),
    # a program's own loader, not an extension imported before torch
    ("./infer: error while loading shared libraries: libc10.so: cannot open shared object file: No such file or "
     "directory", "import-order-conflict"),
    # torch's own _C is not another package's extension
    ("ImportError: DLL load failed while importing _C: The specified procedure could not be found.",
     "extension-abi-mismatch"),
    # a shard loading that finishes is no crash
    ("Loading checkpoint shards: 100%|##########| 4/4 [00:03<00:00]\nRunning on local URL: http://127.0.0.1:7860",
     "pagefile-too-small"),
    # a Python the tool does support
    ("Python 3.11 is supported since 2.1", "unsupported-python"),
    # torch 2.0.1 installed by pip, with no resolver in sight
    ("pip install torch==2.0.1\nSuccessfully installed torch-2.0.1\nImportError: libcudnn.so.8: cannot open shared "
     "object file", "known-bad-release"),
    # the user asking for the CPU build is no complaint
    ("Which command gives the CPU wheel? I want to run torch on a laptop without a GPU", "cpu-only-build"),
    # from the review of this round: advice, questions, negatives and other causes in the same words
    ("poetry add torch==2.0.1 on my M1 Mac\nRuntimeError: MPS backend out of memory", "known-bad-release"),
    ("Does it also fail on 2.1.0, or do older versions work?", "known-bad-release"),
    ("I tried tensorflow 2.14 and 2.13 too. Other versions do not work either. GPU is not found.", "known-bad-release"),
    ("pip install tensorflow fails on Python 3.13: No matching distribution found for tensorflow. Older versions "
     "work with Python 3.11.", "known-bad-release"),
    ("After export NCCL_P2P_DISABLE=1 there are no NCCL errors anymore but training hangs on Ubuntu 22.04",
     "nccl-unavailable"),
    ("How can I make inference not use the GPU? I want to keep the GPU free for gaming.", "cpu-only-build"),
    ("If the CPU build was installed, uninstall it and install the cu121 wheel.", "cpu-only-build"),
    ("requirements.txt:\nonnxruntime==1.17.1; sys_platform == 'darwin'\nonnxruntime-gpu==1.17.1; "
     "sys_platform != 'darwin'", "duplicate-install"),
    ("torch._inductor.exc.InductorError: CalledProcessError: Command '['/usr/local/cuda/bin/ptxas', "
     "'--gpu-name=sm_120', '/tmp/x.ptx']' returned non-zero exit status 255.", "extension-build-env"),
    ("Error relocating /usr/lib/libcurl.so.4: SSL_get0_group_name: symbol not found", "glibcxx-too-old"),
    ("Сервер на AMD процессоре, видеокарта RTX 3060, torch.cuda.is_available() False", "code-requires-cuda"),
]

HEALTHY = [
    "nvidia-smi: the GPU is detected and training uses my GPU at 95%",
]


def test_a_torch_library_missing_for_an_extension_names_import_order() -> None:
    """torch/lib's own libraries are found through torch having loaded them: an extension that
    cannot find libc10.so was imported before torch (the cause is among the first three)."""
    text = ('  File "/home/u/mylib/__init__.py", line 3, in <module>\n    from . import _C\n'
            "ImportError: libc10.so: cannot open shared object file: No such file or directory")
    assert "import-order-conflict" in shown_slugs(text)[:3]


def test_the_jax_plugin_failure_is_not_a_cpu_only_jaxlib() -> None:
    text = ("Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n"
            "WARNING: An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed.")
    assert shown_slugs(text)[:1] != ["cpu-only-build"]
