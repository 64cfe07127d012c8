"""Mechanism-level rules, forty-second round (issue 14, item 2): written on generation 32's
train reports before its held-out split was measured; each with a text of our own writing (not
a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a dependency's release moved a module the importer still imports
    ("  File \"/env/lib/python3.11/site-packages/tabkit/core.py\", line 3, in <module>\n"
     "    from toolbelt.compat import *\n"
     "ImportError: Could not import 'compat' from toolbelt - this module has been moved to the "
     "oldbelt package.", "requirement-conflict"),
    # a package's own check of the framework release beside it
    ("import bayeskit\n!!!!\nThe installed Theano version (1.0.4) does not match the PyMC3 requirements.\n!!!!",
     "companion-mismatch"),
    # Chainer beside a CuPy of another release
    ("import chainer\n  File \"/usr/local/lib/python3.7/dist-packages/chainer/backends/cuda.py\", line 77\n"
     "ModuleNotFoundError: No module named 'cupy.util'", "companion-mismatch"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # a deprecation warning that names a move is no failure of the import
    ("DeprecationWarning: this module has been moved to the newpkg package; import it from there\n"
     "Training finished: 10 epochs", "requirement-conflict"),
    # the CUDA toolkit's own words are a toolkit mismatch, not a companion
    ("The installed CUDA version (11.6) does not match the DeepSpeed requirements", "companion-mismatch"),
    # CuPy's own submodule missing without Chainer anywhere
    ("import cupy\nModuleNotFoundError: No module named 'cupy._core.core'", "companion-mismatch"),
]

HEALTHY: list[str] = [
    "chainer 7.8.1 and cupy-cuda102 7.8.0 installed; chainer.backends.cuda.available is True",
]
