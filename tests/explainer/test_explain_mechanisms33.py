"""Mechanism-level rules, thirty-third round (issue 14, item 2): written on generation 26's
held-out cases after their one measurement, and on its later train cases; each with a text of
our own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a VM's default CPU type hides AVX: a crash beside Proxmox, VirtualBox or kvm64
    ("The inference worker was sent code 134!\nThe server is an Ubuntu 22.04 guest on Proxmox VE 8.",
     "cpu-instructions-unsupported"),
    ("Guest: VirtualBox 7, Debian 12.\nFatal Python error: Illegal instruction\n\nCurrent thread 0x00007f12aa3c1740 "
     "(most recent call first):\n  File \"/app/detect.py\", line 12 in run", "cpu-instructions-unsupported"),
    # the user says AVX is missing
    ("the app noticed the missing AVX instruction set and switched modes, but the classifier still errors",
     "cpu-instructions-unsupported"),
    # a Jetson, an illegal instruction in Chinese: numpy 1.19.5's OpenBLAS on that ARM core
    ("在 jetson_nano 上 import paddle 报错:\n>>> import paddle\n非法指令 (核心已转储)", "known-bad-release"),
    # a new RTX 50 card where the older one worked
    ("Rendering fails since I upgraded to an RTX 5080. It worked fine with my RTX 3070 for months.",
     "gpu-arch-unsupported"),
    # a subpackage of the installed package imports as a namespace package: files missing
    ("File ~/venv/lib/python3.12/site-packages/fastlib/__init__.py:88\n---> 88 from fastlib.ops import kernel\n"
     "ImportError: cannot import name 'kernel' from 'fastlib.ops' (unknown location)", "corrupt-install"),
    # Windows' loader: an export by number missing from the DLL it found
    ("The ordinal 242 could not be located in the dynamic link library C:\\Tools\\bin\\libiomp5md.dll",
     "path-pollution"),
    # only a placeholder on PyPI
    ("ERROR: Could not find a version that satisfies the requirement fastrt==2.1.0 "
     "(from versions: 0.0.0, 0.0.0.post1)\nERROR: No matching distribution found for fastrt==2.1.0",
     "wrong-index-variant"),
    # one Python works, another fails
    ("It installed fine using python 3.10.13. With python 3.13.1 the build of a dependency fails.",
     "unsupported-python"),
    # the user has no CUDA and wants the CPU: the code requires CUDA
    ("AssertionError: Torch not compiled with CUDA enabled\nI don't want to install CUDA. How can I run this script "
     "on the CPU?", "code-requires-cuda"),
    # the conditional with its outcome: one import order works
    ("undefined symbol: cudaGraphDebugDotPrint, version libcudart.so.12\n"
     "If I restart the kernel and import torch first, everything works.", "import-order-conflict"),
    # two import orders shown, with aliases
    ("this fails:\nimport cupy as cp\nimport torch\n\nthis works:\nimport torch\nimport cupy as cp\n",
     "import-order-conflict"),
    # another package's extension was never built: its traceback, then NameError
    ("  File \"/opt/env/lib/python3.10/site-packages/fastdet/models/attn.py\", line 40, in forward\n"
     "    out = _C.attn_forward(q, k, v)\nNameError: name '_C' is not defined", "extension-build-env"),
    # the same mechanisms in other words: a system dist-packages, "status 132", "used to work on", the
    # failing Python named first, an ordinal's DLL path with spaces
    ("  File \"/usr/lib/python3/dist-packages/fastlib/__init__.py\", line 10, in <module>\n"
     "ImportError: cannot import name 'kernel' from 'fastlib.ops' (unknown location)", "corrupt-install"),
    ("Proxmox VM: the ml container exited with status 132", "cpu-instructions-unsupported"),
    ("After installing my RTX 5090 the app fails. It used to work on my RTX 3090.", "gpu-arch-unsupported"),
    ("With python 3.13 the install fails, but with python 3.12 it works.", "unsupported-python"),
    ("The ordinal 191 could not be located in the dynamic link library C:\\Program Files\\App\\libiomp5md.dll",
     "path-pollution"),
    # nvcc's release and the library an extension wants are of different majors
    ("The extension asks for libcudart.so.11.0 but nvcc says: Cuda compilation tools, release 10.2, V10.2.89",
     "cuda-toolkit-mismatch"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # QEMU alone: an emulated amd64 image on an Apple Silicon Mac
    ("The service in my Proxmox VM crashes: Segmentation fault (core dumped)", "cpu-instructions-unsupported"),
    # Proxmox named, a crash that is no CPU's
    ("The pod on my Proxmox cluster is killed: OOMKilled, exit code 137", "cpu-instructions-unsupported"),
    # "missing" near AVX but about something else
    ("AVX2 works; the missing piece was the model file: FileNotFoundError: weights.pt", "cpu-instructions-unsupported"),
    # an RTX 50 card, and no older card that worked
    ("My RTX 5090 renders fine; the RTX 3070 in the other box crashes: CUDA error: out of memory",
     "gpu-arch-unsupported"),
    # a folder of the user's own: the top-level name, not a subpackage of an installed one
    ("ImportError: cannot import name 'nn' from 'torch' (unknown location)", "corrupt-install"),
    # a real release list
    ("ERROR: Could not find a version that satisfies the requirement fastrt==9.0 (from versions: 0.0.0, 1.0.1, 1.2.0)",
     "wrong-index-variant"),
    # both Pythons fine
    ("It installed fine using python 3.10. With python 3.11 it installed fine too.", "unsupported-python"),
    # the user has CUDA and wants it used
    ("AssertionError: Torch not compiled with CUDA enabled\n"
     "I have CUDA 12.1 installed, how can I make torch use the GPU?",
     "code-requires-cuda"),
    # a question, not the outcome
    ("If I import torch first, does everything work? Right now: undefined symbol: cudaGraphDebugDotPrint",
     "import-order-conflict"),
    # torch's own _C from a source tree: shadowed, not another package's build
    ("  File \"/home/u/src/pytorch/torch/__init__.py\", line 55, in <module>\nNameError: name '_C' is not defined",
     "extension-build-env"),
]

# (found by a fresh-eyes review of this round's first draft)
NOT_CLAIMED += [
    # torch's own _C raises, under another package's frame: torch is the one broken
    ("  File \"/venv/lib/python3.10/site-packages/app/__init__.py\", line 3, in <module>\n    import torch\n"
     "  File \"/venv/lib/python3.10/site-packages/torch/__init__.py\", line 465, in <module>\n"
     "NameError: name '_C' is not defined", "extension-build-env"),
    # a segfault's thread dump in a VM, and CUDA's device-side illegal instruction: no CPU's
    ("I run Ubuntu in VirtualBox 7.\nFatal Python error: Segmentation fault\n\nCurrent thread 0x00007f3a1b2c3740 "
     "(most recent call first):", "cpu-instructions-unsupported"),
    ("Proxmox VM, an A100 passed through.\nRuntimeError: CUDA error: an illegal instruction was encountered",
     "cpu-instructions-unsupported"),
    # the new card works, the old one fails
    ("My RTX 5090 works; the RTX 3070 in the other box crashes with CUDA error: out of memory", "gpu-arch-unsupported"),
    # two patch releases of one Python, and a runtime error
    ("It worked using python 3.10.12, but with python 3.10.14 it fails.", "unsupported-python"),
    ("It works with python 3.10, with python 3.11 I get an error: CUDA out of memory.", "unsupported-python"),
    # a CUDA release preferred, and a toolkit the wheel bundles
    ("I don't want CUDA 12, I need CUDA 11.8 because of my driver.", "code-requires-cuda"),
    # "it" is no package; "not about missing AVX" rules it out
    ("ModuleNotFoundError: No module named 'torch'\nWhen I import it first in a fresh venv after pip install torch, "
     "it works.", "import-order-conflict"),
    ("It's not about missing AVX - my CPU has AVX2.\nImportError: DLL load failed while importing "
     "_pywrap_tensorflow_internal: The specified module could not be found.", "cpu-instructions-unsupported"),
    # a listing of conda builds for two CUDA releases
    ("pytorch 2.0.1 py3.10_cuda11.7_cudnn8.5.0_0 pytorch\npytorch 2.1.0 py3.10_cuda12.1_cudnn8.9.2_0 pytorch\n"
     "Which one should I install?", "cuda-toolkit-mismatch"),
]

# words of success: no answer
HEALTHY = [
    "Moved the VM to CPU type host on Proxmox; the worker runs fine now.",
    "Switched from the RTX 3070 to an RTX 5080 with torch 2.7 cu128: it works great.",
    "Benchmark: RTX 5090 ran 2x faster than RTX 4090; both worked with torch 2.7.",
    "How can I run inference on the CPU? The docs only show GPU. Everything installs fine.",
    "When you import torch first it takes 10 seconds, then it works fine.",
]
