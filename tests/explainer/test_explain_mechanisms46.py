"""Mechanism-level rules, forty-sixth round (issue 14, item 2): written on generation 35's
train reports before its held-out ones were measured; each with a text of our own writing
(not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

#: the round's rules, not word evidence, put each case's cause first
#: (test_explain_mechanism_rounds.py checks it with words=False)
RULES_ALONE = True

# (text, the cause the mechanism implies first)
CASES = [
    # mmdet's mmcv check cut to its first sentence
    ("mmdet fails at start: MMCV==2.2.0 is used but incompatible.", "companion-mismatch"),
    # pip before 21.2: a setup.py importing torch where the build cannot see it
    ("ERROR: Command errored out with exit status 1:\n"
     "     command: /home/u/venv/bin/python -c 'import sys, setuptools' egg_info --egg-base "
     "/tmp/pip-pip-egg-info-x1\n"
     "    Complete output (5 lines):\n    Traceback (most recent call last):\n"
     "      File \"/tmp/pip-req-build-x1/setup.py\", line 4, in <module>\n        import torch\n"
     "    ModuleNotFoundError: No module named 'torch'", "extension-build-env"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # a module inside torch that a newer torch dropped is no build isolation (review)
    ("  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n"
     "  ModuleNotFoundError: No module named 'torch._six'", "extension-build-env"),
    # the package's own source line is no version check (review)
    ("    f'MMCV=={mmcv.__version__} is used but incompatible. '", "companion-mismatch"),
]

HEALTHY: list[str] = [
    "MMCV==2.1.0 and mmdet 3.3.0 installed; the demo runs.",
]

