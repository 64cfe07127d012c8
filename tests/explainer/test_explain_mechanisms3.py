"""Mechanism-level rules, third round (issue 14, item 2): each wrong assumption corrected, shown
with a text of our own writing (not a corpus case) and a text it must not claim."""

from __future__ import annotations

import pytest

from .ranked import shown_slugs

FBGEMM_126 = ('OSError: [WinError 126] The specified module could not be found. Error loading '
              '"D:\\apps\\tool\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.')



# (text, the cause the mechanism implies first)
CASES = [
    # pip lists local variants (+cu118) of other releases: the index is right, the release asked
    # for has no wheel for this interpreter
    ("ERROR: Could not find a version that satisfies the requirement torchaudio==0.13.1+cu117 "
     "(from versions: 2.1.0, 2.1.0+cu118, 2.1.1, 2.1.1+cu118)", "unsupported-python"),
    # no release at all for this interpreter: the local variant asked for is not the question
    ("ERROR: Could not find a version that satisfies the requirement torch==1.12.1+cu116 (from versions: none)\n"
     "ERROR: No matching distribution found for torch==1.12.1+cu116", "unsupported-python"),
    # a torch library every release ships, not found from a compiled extension: torch not loaded first
    ('  File "/srv/app/ops/__init__.py", line 2, in <module>\n    from . import _fused\n'
     "ImportError: libc10.so: cannot open shared object file: No such file or directory", "import-order-conflict"),
    # numpy before 1.20 printed the C API versions as bare hex
    ("RuntimeError: module compiled against API version b but this version of numpy is a", "numpy-abi-mismatch"),
    # numpy's own words that its C core failed: the numpy on sys.path is not this interpreter's
    ("ImportError: \nIMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n"
     "Importing the numpy C-extensions failed. This error can happen for\nmany reasons\n"
     "Original error was: No module named 'numpy.core._multiarray_umath'", "pythonpath-pollution"),
    # a compiled module asks numpy for the C core that numpy 1.16 introduced
    ("  File \"/opt/lib/python3.7/site-packages/fastops/__init__.py\", line 1, in <module>\n"
     "ImportError: No module named 'numpy.core._multiarray_umath'", "numpy-abi-mismatch"),
    # the user compares the installed version with the imported one, and gets another version
    ("pip show torch says Version: 2.3.1, yet\n>>> import torch\n>>> torch.__version__\n'2.0.0'",
     "user-site-shadowing"),
    ("I reinstalled scipy twice but python still picks up an old version of it", "user-site-shadowing"),
    ("the plugin is outdated at runtime although the environment has the newest release", "user-site-shadowing"),
    # the framework's own library lacks one of the framework's own symbols: two builds mixed
    ("ImportError: /home/u/venv/lib/python3.9/site-packages/torch/lib/libtorch_cpu.so: "
     "undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb", "duplicate-install"),
]


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # PyPI's list (no local variants) without the +cu117 build: the index is the question
    ("ERROR: Could not find a version that satisfies the requirement torch==1.13.1+cu117 "
     "(from versions: 1.11.0, 1.12.0, 1.13.0, 1.13.1, 2.0.0)", "unsupported-python"),
    # a library only CUDA builds ship: the extension was built for another torch, not imported too early
    ("ImportError: libc10_cuda.so: cannot open shared object file: No such file or directory", "import-order-conflict"),
    # an ordinary library missing is not an import-order problem
    ("ImportError: libsndfile.so.1: cannot open shared object file: No such file or directory",
     "import-order-conflict"),
    # the import finds nothing: another interpreter, not another copy
    ("pip list shows torch but python says No module named torch", "user-site-shadowing"),
    # a CUDA library's symbol missing in torch's library: a foreign cuBLAS, not two torch installs
    ("OSError: /env/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
     "cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11", "duplicate-install"),
]


# texts of success: no claim at all
HEALTHY = [
    "Successfully installed torch-2.3.1\n>>> import torch\n>>> torch.__version__\n'2.3.1'",
    "numpy 1.26.4 imports fine and the tests pass",
    "Everything still works at runtime after the upgrade.",
]


def test_a_release_mark_alone_does_not_outrank_the_mechanism_the_message_shows() -> None:
    # WinError 126 loading fbgemm.dll: a dependency (the VC++ / OpenMP runtime) is missing; the
    # release table's 2.4.0 is a close lead, not the first answer, while the release is unknown
    ranked = shown_slugs(FBGEMM_126)
    assert ranked[0] == "missing-vc-runtime"
    assert "known-bad-release" in ranked[:3]
    # the machine (or the text) says 2.4.0: now the regression comes first
    assert shown_slugs(FBGEMM_126, os="windows", torch_version="2.4.0")[0] == "known-bad-release"
    assert shown_slugs(FBGEMM_126 + "\ntorch==2.4.0")[0] == "known-bad-release"
    # another release rules the regression out (no rule names it; word evidence may, below them)
    assert "known-bad-release" not in shown_slugs(FBGEMM_126 + "\ntorch==2.5.1", words=False)


@pytest.mark.parametrize("text, slug", [
    # an extension builder compares the toolkit with torch's CUDA before compiling
    ("deepspeed.ops.op_builder.builder.CUDAMismatchException: Installed CUDA version 11.7 does not match "
     "the version torch was compiled with 12.4, unable to compile cuda/cpp extensions", "cuda-toolkit-mismatch"),
    # the user's own sentence: a script of theirs carries a module's name
    ("I had called my script random.py and now numpy fails to import from that folder", "shadowed-module"),
])
def test_the_words_of_the_report_name_the_cause(text: str, slug: str) -> None:
    assert shown_slugs(text)[0] == slug


def test_a_script_with_an_ordinary_name_is_not_shadowing() -> None:
    assert "shadowed-module" not in shown_slugs("I named my script train.py and it prints the loss")
