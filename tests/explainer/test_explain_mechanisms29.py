"""Mechanism-level rules, twenty-ninth round (issue 14, item 2): written on generation 24's
held-out cases after their one measurement (when they joined train); each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a package's relative frames (the working directory's source tree) ending in its built
    # private module missing
    ('>>> import fastlib\nTraceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
     '  File "fastlib/__init__.py", line 4, in <module>\n    from .core import run\n'
     '  File "fastlib/core.py", line 2, in <module>\n    from ._native import run\n'
     "ImportError: No module named _native", "shadowed-module"),
    # a checkout's package, the closing quote lost in the paste
    ('  File "/home/u/work/fastlib/fastlib/__init__.py", line 9, in <module>\n'
     "    from fastlib.capi import core\nModuleNotFoundError: No module named 'fastlib.capi", "shadowed-module"),
    # PyPI's torch placeholder, no other index given
    ("C:\\> pip install torch==1.2.0\nERROR: Could not find a version that satisfies the requirement "
     "torch==1.2.0 (from versions: 0.1.2, 0.1.2.post1, 0.1.2.post2)", "wrong-index-variant"),
    # a CUDA library of one major release asked for, the user stating another
    ('Error loading "onnxruntime_providers_cuda.dll" which depends on "cufft64_11.dll" which is missing.\n'
     "I have CUDA 12 installed, as the guide says.", "cuda-toolkit-mismatch"),
    # HIP's runtime of one ROCm major, another ROCm stated
    ("ROCm version: 5.7.1\nImportError: libamdhip64.so.6: cannot open shared object file: No such file or "
     "directory", "cuda-toolkit-mismatch"),
    # from one release on, the import fails
    ("With mylib==0.9.3 and newer, `import mylib.torch` fails with an undefined symbol.", "known-bad-release"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # relative frames inside a frozen app: its bundle, not a source tree
    ('  File "fastlib/__init__.py", line 4, in <module>\n'
     '  File "PyInstaller/loader/pyimod02_importers.py", line 499, in exec_module\n'
     "ImportError: No module named _native", "shadowed-module"),
    # a relative frame, then an installed package's absolute frames failing
    ('  File "tools\\build.py", line 15, in <module>\n'
     '  File "c:\\venvs\\a\\lib\\site-packages\\vtkmodules\\__init__.py", line 15, in <module>\n'
     "    import _vtkmodules_static\nModuleNotFoundError: No module named '_vtkmodules_static'",
     "shadowed-module"),
    # the placeholder with pytorch.org's index given: the interpreter has no wheel
    ("pip install torch==1.6.0 -f https://download.pytorch.org/whl/torch_stable.html\n"
     "ERROR: Could not find a version that satisfies the requirement torch==1.6.0 (from versions: 0.1.2, "
     "0.1.2.post1, 0.1.2.post2)", "wrong-index-variant"),
    # two stated ROCm releases and no HIP library named: no mismatch shown
    ("Ubuntu 22.04, ROCm 5.7 worked; after upgrading to ROCm 6.0.2 my build is fine as well.\n"
     "RuntimeError: HIP error: invalid device function", "cuda-toolkit-mismatch"),
    # a script folder's relative frame, a module missing from an installed package
    ('  File "scripts/convert.py", line 4, in <module>\n    import yaml\n'
     "ModuleNotFoundError: No module named '_yaml'", "shadowed-module"),
    # the ROCm stated is the library's own
    ("ROCm version: 6.0.2\nImportError: libamdhip64.so.6: cannot open shared object file: No such file or "
     "directory", "cuda-toolkit-mismatch"),
    # a question whether a newer release helps, a failure word in it
    ("Should I try mylib==0.9.3 and newer, or does it fail there too?", "known-bad-release"),
    # a newer release named as the fix
    ("Pinning mylib==0.9.3 or later fixes the undefined symbol error for me.", "known-bad-release"),
]

# words of success: no answer
HEALTHY = [
    "With mylib==0.9.3 and newer everything works on Python 3.12",
    "I have CUDA 12 installed and torch.cuda.is_available() is True",
]
