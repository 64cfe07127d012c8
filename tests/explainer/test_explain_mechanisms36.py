"""Mechanism-level rules, thirty-sixth round (issue 14, item 2): written on generation 29's train
cases before the held-out split was measured. Two error shapes split where they had mixed two
mechanisms (a name missing from a found module is no failed import; a failed build is no failed
resolve), the two older signatures on the user's words about the CPU build narrowed to what
happened, and a few mechanisms the new train cases showed; each with a text of our own writing
(not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # the installer gave the CPU build, told in the user's words
    ("This command installs cpu version instead of cuda.\nconda install pytorch cudatoolkit=11.1 -c pytorch",
     "cpu-only-build"),
    ("Why does pip install the CPU version of torch? I passed the cu118 index", "cpu-only-build"),
    ("It defaults to the [cpu] version even when having cuda installed.", "cpu-only-build"),
    # a found module without a name another package asks of it: written for another release
    ("ImportError: cannot import name 'Pool2D' from 'somelib.layers'", "requirement-conflict"),
    ("ImportError: cannot import name QuantLinearV3", "requirement-conflict"),
    # a source build failed: the build's environment, not the resolver
    ("Building wheel for fastops (pyproject.toml) did not run successfully.\n  exit code: 1",
     "extension-build-env"),
    # the user's two orders of two imports, an alias in each
    ("import onnxruntime as ort\nimport PySide6\nfine\n\nimport PySide6\nimport onnxruntime as ort\n"
     "ImportError: DLL load failed while importing onnxruntime_pybind11_state", "import-order-conflict"),
    # the build's nvcc is not where CUDA_HOME or sudo's PATH says
    ("error: unable to execute ':/usr/local/cuda-12.1/bin/nvcc': No such file or directory",
     "extension-build-env"),
    ("$ sudo python train.py\nERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH.",
     "extension-build-env"),
    # a bus error in a container: /dev/shm is 64 MB there
    ("docker run --gpus all nvcr.io/nvidia/pytorch:23.10-py3 python train.py\nBus error (core dumped)",
     "dataloader-worker-crash"),
    ("Fatal Python error: Bus error\nThe job runs in a Kubernetes pod with 8 workers", "dataloader-worker-crash"),
    # llama.cpp's Metal backend not starting: an x86_64 Python under Rosetta
    ("llama_new_context_with_model: failed to initialize Metal backend", "wrong-architecture"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # a question, a wish: nothing was installed yet
    ("Can I install the cpu version instead of cuda? The download is 2 GB.", "cpu-only-build"),
    ("How do I make pip install the cpu version of torch for my Docker image?", "cpu-only-build"),
    # the CPU build chosen on purpose, or for a machine without a GPU
    ("I installed the CPU version on purpose.\nImportError: No module named 'torchvision'", "cpu-only-build"),
    ("conda installed a CPU-only version of pytorch since I don't have a GPU; now numpy fails:\n"
     "ImportError: numpy.core.multiarray failed to import", "cpu-only-build"),
    ("It gave me the cpu build instead, which is fine because this laptop has no gpu. But "
     "ModuleNotFoundError: No module named 'torch._C'", "cpu-only-build"),
    # a module not found is the import's shape, not the name's: no release of another package
    ("ImportError: cannot import name 'Encoder' from 'layers' (/home/u/proj/layers.py)", "requirement-conflict"),
    ("ImportError: cannot import name 'TypeAlias' from 'typing'", "requirement-conflict"),
    ("ModuleNotFoundError: No module named 'somelib'", "requirement-conflict"),
    # no wheel for this Python is the resolver's shape, not the build's
    ("ERROR: Could not find a version that satisfies the requirement fastops==2.0 (from versions: none)",
     "extension-build-env"),
    # a user checking the toolkit: nvcc not on PATH is no build at all
    ("$ nvcc --version\nbash: nvcc: command not found\ntorch.cuda.is_available() returns False",
     "extension-build-env"),
    # a bus error outside a container, and a container word without one
    ("Bus error (core dumped) while reading a truncated memory-mapped file", "dataloader-worker-crash"),
    ("docker run --gpus all my-image\nSegmentation fault (core dumped)", "dataloader-worker-crash"),
    # Metal that works, and a Metal error of another kind
    ("ggml_metal_init: loaded kernel_add\nMetal backend initialized", "wrong-architecture"),
]

HEALTHY: list[str] = []
