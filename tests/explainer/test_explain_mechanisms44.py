"""Mechanism-level rules, forty-fourth round (issue 14, item 2): written on generation 33's
held-out reports after their one measurement; each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # jax's own check of jaxlib (review: a real runtime line)
    ("ImportError: This version of jax requires jaxlib version >= 0.4.19.", "companion-mismatch"),
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
    # a user folder named like an extension is no extension (review)
    ("  File \"C:\\Users\\Apex\\Desktop\\sd\\train.py\", line 2, in <module>\n"
     "    from torch.nn.attention import SDPBackend\n"
     "ImportError: cannot import name 'SDPBackend' from 'torch.nn.attention'", "extension-abi-mismatch"),
    # torch importing its own module: a broken or mixed install, not a companion (review)
    ("  File \"/env/lib/python3.10/site-packages/torch/__init__.py\", line 1465, in <module>\n"
     "    from torch._dynamo import *\n"
     "  File \"/env/lib/python3.10/site-packages/torch/_dynamo/__init__.py\", line 2, in <module>\n"
     "    from . import convert_frame\n"
     "ModuleNotFoundError: No module named 'torch._dynamo.convert_frame'", "companion-mismatch"),
    # the user's own script on an old torch (review)
    ("Traceback (most recent call last):\n  File \"/content/train.py\", line 7, in <module>\n"
     "    import torch._dynamo\nModuleNotFoundError: No module named 'torch._dynamo'", "companion-mismatch"),
    # the ROCm build itself ran and found no GPU (review)
    ("pip install torch --index-url https://download.pytorch.org/whl/rocm6.1\n"
     "Successfully installed torch-2.4.0+rocm6.1\n"
     "RuntimeError: Found no NVIDIA driver on your system.", "wrong-index-variant"),
    # the runtime said to be installed already (review)
    ("OSError: [WinError 127] The specified procedure could not be found. Error loading "
     "\"C:\\venv\\lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll\" or one of its dependencies.\n"
     "I already reinstalled the vcruntime dll, didn't help.", "missing-vc-runtime"),
    # no NVIDIA driver on an AMD card with no ROCm index in sight: the code needs CUDA
    ("I have an AMD card.\nRuntimeError: Found no NVIDIA driver on your system.",
     "wrong-index-variant"),
]

HEALTHY: list[str] = [
    "pip install torch --index-url https://download.pytorch.org/whl/rocm6.2 finished; "
    "torch.cuda.is_available() is True on the Radeon RX 7900 XTX",
]
