"""Mechanism-level rules, thirty-first round (issue 14, item 2): written on generation 25's
held-out cases after their one measurement (when they joined train); each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # glibc's version error pasted with its quotes escaped
    ("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version \\'GLIBC_2.34\\' not found (required by "
     "/opt/env/lib/python3.10/site-packages/fastlib/_core.so)", "glibcxx-too-old"),
    # a __future__ feature the running Python predates
    ('  File "/srv/env/lib/python3.6/site-packages/fastlib/api.py", line 1\n'
     "    from __future__ import annotations\n                                      ^\n"
     "SyntaxError: future feature annotations is not defined", "unsupported-python"),
    # the user's words: no support for a framework on their Python
    ("It looks like there is no support for PyTorch on Python 3.4, pip finds nothing.", "unsupported-python"),
    # a program's own "Error 126" loading a plugin
    ("Error 126 loading external fastlib~ (the plugin works on the other machine)", "missing-shared-library"),
    # Windows spawning DataLoader workers: the dataset does not pickle, the worker reads nothing
    ("AttributeError: Can't pickle local object 'build_dataset.<locals>.transform'", "dataloader-worker-crash"),
    ("EOFError: Ran out of input\nThis happens on Windows as soon as training starts.", "dataloader-worker-crash"),
    # the same two imports in both orders, the outcome told after each
    ("```\nimport fastlib\nimport torch\n```\nruns fine, but\n```\nimport torch\nimport fastlib\n```\n"
     "segfaults at once", "import-order-conflict"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a question, not a statement
    ("Is there no support for PyTorch on Python 3.12 yet?", "unsupported-python"),
    # Windows' own WinError 126 is another signature's
    ("OSError: [WinError 126] The specified module could not be found. Error loading "
     '"C:\\env\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.', "import-order-conflict"),
    # pickle reading an empty checkpoint: no worker in sight
    ("  File \"train.py\", line 40, in <module>\n    state = torch.load('ckpt/last.pt')\nEOFError: Ran out of input",
     "dataloader-worker-crash"),
    # the same imports twice in one order: no swap
    ("```\nimport fastlib\nimport torch\n```\nand again\n```\nimport fastlib\nimport torch\n```\nsegfaults",
     "import-order-conflict"),
]

# words of success: no answer
HEALTHY = [
    "import fastlib\nimport torch\nand\nimport torch\nimport fastlib\nboth work fine",
]
