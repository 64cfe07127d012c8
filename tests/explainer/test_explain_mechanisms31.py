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
    ("LoadLibrary failed with error 126: The specified module could not be found.", "missing-shared-library"),
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
    # a warning in a successful install: a feature skipped, nothing failed
    ("Successfully installed fastlib-1.4.0\nWARNING: uvloop has no support for Python 3.12 on Windows; "
     "falling back to asyncio.", "unsupported-python"),
    # a checkpoint cut short on Windows: torch.load's pickle reads nothing
    ("Windows 11, Python 3.10\n  File \"C:\\env\\lib\\site-packages\\torch\\serialization.py\", line 1028, "
     "in load\n    return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)\n"
     "EOFError: Ran out of input", "dataloader-worker-crash"),
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


def test_windows_own_error_126_is_not_a_programs_words() -> None:
    """WinError 126 is Python's (other signatures read it); error-126-loading reads a program's own
    "Error 126 loading ..." and LoadLibrary's "failed with error 126"."""
    from dldoctor.explainer.match import find_hits
    from dldoctor.explainer.signatures import load_signatures

    sigs = load_signatures()
    winerror = ("OSError: [WinError 126] The specified module could not be found. Error loading "
                '"C:\\env\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.')
    assert "error-126-loading" not in find_hits(winerror, sigs)
    assert "error-126-loading" in find_hits("LoadLibraryExW failed with error 126", sigs)
