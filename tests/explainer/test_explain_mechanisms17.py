"""Mechanism-level rules, seventeenth round (issue 14, item 2): written on generation 12's
held-out cases after they were measured once and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # pip building from source and failing
    ("  Building wheel for pyaudio (pyproject.toml) ... error\n  error: subprocess-exited-with-error",
     "extension-build-env"),
    ("ERROR: Could not build wheels for pyworld, which is required to install pyproject.toml-based projects",
     "extension-build-env"),
    # a manylinux wheel for a newer glibc
    ("ERROR: foo-1.0-cp311-cp311-manylinux_2_35_x86_64.whl is not a supported wheel on this platform.\n"
     "Ubuntu 20.04, Python 3.11", "glibcxx-too-old"),
    # a name missing from the framework's own modules
    ("ImportError: cannot import name 'SAVE_STATE_WARNING' from 'torch.optim.lr_scheduler'", "companion-mismatch"),
    ("AttributeError: module 'torch' has no attribute 'compiler'", "companion-mismatch"),
    ("AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute 'register_load_context_function'",
     "companion-mismatch"),
    # torchaudio's sox backend without libsox
    ("RuntimeError: load requires sox extension which is not available.", "missing-shared-library"),
    # sudo running root's Python
    ("sudo python3 setup.py install\nTraceback (most recent call last):\n  File \"setup.py\", line 3, in <module>\n"
     "ModuleNotFoundError: No module named 'torch'", "interpreter-mismatch"),
    # ld's message with a Markdown closing backtick
    ("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38` not found (required by foo.so)",
     "glibcxx-too-old"),
    ("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34` not found...", "glibcxx-too-old"),
    # torch's architecture check, wrapped
    ("NVIDIA GeForce RTX 5090 with CUDA capability\nsm_120 is not compatible with the current PyTorch\n"
     "installation.", "gpu-arch-unsupported"),
    # the user's retelling of a wrong ELF class
    ("pip install works but importing fails with an ELF CLASS error on the Raspberry Pi", "wrong-architecture"),
    # pip's resolver
    ("The conflict is caused by:\n    The user requested torch==1.13.1\n    torchvision 0.16.0 depends on "
     "torch==2.1.0", "requirement-conflict"),
    # a Node.js binary for another platform
    ("Error: Unsupported system: cpu-linux-arm64-ia32", "wrong-architecture"),
    ("npm ERR! Error: Unsupported system: cpu-win32-ia32", "wrong-architecture"),
    # nnU-Net's workers
    ("RuntimeError: One or more background workers are no longer alive. Exiting.", "dataloader-worker-crash"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # a wheel built fine
    ("  Building wheel for pyaudio (pyproject.toml) ... done\nSuccessfully installed pyaudio-0.2.14",
     "extension-build-env"),
    # manylinux2014 is glibc 2.17: the Python tag is what is refused
    ("ERROR: foo-1.0-cp39-cp39-manylinux2014_x86_64.whl is not a supported wheel on this platform.",
     "glibcxx-too-old"),
    # a local torch.py: the attribute a shadowing file lacks
    ("AttributeError: module 'torch' has no attribute 'cuda'", "companion-mismatch"),
    # the user's own module
    ("ImportError: cannot import name 'Net' from 'models.torchnet'", "companion-mismatch"),
    # a resolver conflict whose dependency has no release here: the Python or platform
    ("The conflict is caused by:\n    ddddocr 1.1.0 depends on onnxruntime\nERROR: Could not find a version that "
     "satisfies the requirement onnxruntime (from versions: none)", "requirement-conflict"),
]

HEALTHY = [
    "Building wheel for pyworld (pyproject.toml) ... done",
]
