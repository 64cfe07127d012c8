"""Mechanism-level rules, forty-third round (issue 14, item 2): written on generation 32's
held-out reports after their one measurement; each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a framework's companion names the framework release it needs
    ("  File \"/opt/conda/lib/python3.7/site-packages/keras/__init__.py\", line 6, in <module>\n"
     "    'Keras requires TensorFlow 2.2 or higher. '\n"
     "ImportError: Keras requires TensorFlow 2.2 or higher. Install TensorFlow via "
     "`pip install tensorflow`", "companion-mismatch"),
    # conda's own command failing still reads as conda failing
    ("$ conda install -c conda-forge pytorch=1.4 python=3.12\nCollecting package metadata: done\n"
     "Solving environment: failed\nUnsatisfiableError: The following specifications were found "
     "to be incompatible", "conda-solver-conflict"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # Keras's line chained under TensorFlow's own failure: TensorFlow's failure is the cause
    ("Traceback (most recent call last):\n"
     "  File \"C:\\env\\lib\\site-packages\\tensorflow\\python\\pywrap_tensorflow.py\", "
     "line 64, in <module>\n    from tensorflow.python._pywrap_tensorflow_internal import *\n"
     "ImportError: DLL load failed: The specified module could not be found.\n\n"
     "During handling of the above exception, another exception occurred:\n\n"
     "ImportError: Keras requires TensorFlow 2.2 or higher. Install TensorFlow via `pip install tensorflow`",
     "companion-mismatch"),
    # a documentation sentence of another companion names no failure
    ("torchvision requires PyTorch 1.7 or newer.\nModuleNotFoundError: No module named 'torch'",
     "companion-mismatch"),
    # a conda environment named in a sentence is where an import failed, not conda failing
    ("I made a conda environment and installed torch with pip, then import torch gives an error:\n"
     "OSError: [WinError 126] The specified module could not be found. Error loading "
     "\"C:\\envs\\t\\lib\\site-packages\\torch\\lib\\c10.dll\"", "conda-solver-conflict"),
    # pip's resolver line, with versions between the names, is a requirement conflict
    ("ERROR: pip's dependency resolver does not currently take into account all the packages "
     "that are installed.\nmlkit 0.3.1 requires numpy<1.24, but you have numpy 1.26.4 which is "
     "incompatible.", "companion-mismatch"),
]

HEALTHY: list[str] = [
    "Keras 2.4.3 with TensorFlow 2.4.1: import keras works and model.fit runs on the GPU",
]
