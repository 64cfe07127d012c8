"""Mechanism-level rules, thirty-sixth round (issue 14, item 2): the two older signatures that read
the user's words about the CPU build, narrowed to what happened (not a wish, not a choice); each
with a text of our own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # the installer gave the CPU build, told in the user's words
    ("This command installs cpu version instead of cuda.\nconda install pytorch cudatoolkit=11.1 -c pytorch",
     "cpu-only-build"),
    ("Why does pip install the CPU version of torch? I passed the cu118 index", "cpu-only-build"),
    ("It defaults to the [cpu] version even when having cuda installed.", "cpu-only-build"),
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
]

HEALTHY: list[str] = []
