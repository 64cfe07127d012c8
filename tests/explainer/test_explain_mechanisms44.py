"""Mechanism-level rules, forty-fourth round (issue 14, item 2): written on generation 33's
held-out reports after their one measurement; each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a compiled extension's own module imports a torch name the installed torch lacks
    ("Traceback (most recent call last):\n"
     "  File \"/home/u/env/lib/python3.10/site-packages/flash_attn/ops/fused.py\", line 12, in <module>\n"
     "    from torch.library import register_fake\n"
     "ImportError: cannot import name 'register_fake' from 'torch.library' "
     "(/home/u/env/lib/python3.10/site-packages/torch/library.py)", "extension-abi-mismatch"),
    # a private torch submodule the importer expects
    ("  File \"/usr/lib/python3/site-packages/torchvision/_meta_registrations.py\", line 4, in <module>\n"
     "    import torch._custom_ops\nModuleNotFoundError: No module named 'torch._custom_ops'",
     "companion-mismatch"),
    # no NVIDIA driver after installing torch from the ROCm index
    ("pip install torch --index-url https://download.pytorch.org/whl/rocm6.2\n"
     "python main.py\nRuntimeError: Found no NVIDIA driver on your system. Please check that you "
     "have an NVIDIA GPU and installed a driver", "wrong-index-variant"),
    # the VC++ runtime's DLL named without its version, in another language
    ("Beim Start fehlt die dll vcruntime, das Programm bricht ab.", "missing-vc-runtime"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # the user's own script importing a name its torch lacks is no extension's build
    ("  File \"/home/u/project/train.py\", line 3, in <module>\n"
     "    from torch.utils.checkpoint import SAC_IGNORED_OPS\n"
     "ImportError: cannot import name 'SAC_IGNORED_OPS' from 'torch.utils.checkpoint'",
     "extension-abi-mismatch"),
    # torch._C missing is a source tree or a broken install, not a companion
    ("import torch\nModuleNotFoundError: No module named 'torch._C'", "companion-mismatch"),
    # no NVIDIA driver on an AMD card with no ROCm index in sight: the code needs CUDA
    ("I have an AMD card.\nRuntimeError: Found no NVIDIA driver on your system.",
     "wrong-index-variant"),
]

HEALTHY: list[str] = [
    "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2 finished; "
    "torch.cuda.is_available() is True on the Radeon RX 7900 XTX",
]
