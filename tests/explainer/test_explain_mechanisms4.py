"""Mechanism-level rules, fourth round (issue 14, item 2): each wrong assumption corrected, shown
with a text of our own writing (not a corpus case) and a text it must not claim."""

from __future__ import annotations

import pytest

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.releases import mentioned_versions

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # ctypes loads a .pyd like any DLL: a satellite's own extension whose torch DLLs are not
    # those it was built against ("or one of its dependencies")
    ("FileNotFoundError: Could not find module 'D:\\py\\Lib\\site-packages\\torchvision\\lib\\image.pyd' "
     "(or one of its dependencies). Try using the full path with constructor syntax.", "companion-mismatch"),
    # a file name followed or preceded by Chinese prose is still a file name: a cuDNN DLL named
    # in a Windows failure is the vendor library (or its own dependency) missing
    ("运行时报错，问题出在cublas64_11.dll上，重装了显卡驱动也不行", "missing-shared-library"),
    # Paddle's own check: no kernels for this GPU's architecture in the wheel
    ("W1102 10:00:00.000 12 gpu_resources.cc:106] The GPU compute capability in your current machine "
     "is 120, which is not supported by Paddle, it is recommended to install the corresponding wheel "
     "package", "gpu-arch-unsupported"),
    # an Apple-silicon Mac whose Python says it is Intel: Rosetta
    ("On my M2 Max, platform.machine() prints i386 and torch runs very slowly", "wrong-architecture"),
    ("error: Distribution `torch==2.5.1` can't be installed because it doesn't have a source distribution "
     "or wheel for the current platform\nhint: You're on macOS (`macosx_14_0_x86_64`), but `torch` (v2.5.1) "
     "only has wheels for the following platform: `macosx_11_0_arm64`; no wheels for this platform tag "
     "macosx_14_0_x86_64", "wrong-architecture"),
    ("RuntimeError: MPS backend is not available on this machine", "wrong-architecture"),
    # the order word in markdown emphasis is still the order word
    ("Importing cv2 **before** torch makes the script hang at the first convolution", "import-order-conflict"),
    # the user's words: it does not work in Jupyter (the kernel is another interpreter)
    ("I created a new conda env for torch but it doesn't work in jupyter notebook", "interpreter-mismatch"),
    # the user's words: a GPU build works on the GPU node and fails on a login node
    ("import jax works on the gpu node but fails with an error on the login node", "gpu-build-without-gpu"),
]


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # an ordinary DLL of the user's own package, not a torch satellite's extension
    ("FileNotFoundError: Could not find module 'C:\\app\\bin\\mylib.dll' (or one of its dependencies).",
     "companion-mismatch"),
    # an Intel Mac that says x86_64 is not Rosetta; an M1 named without an Intel word is healthy
    ("My Intel MacBook (x86_64) runs torch 2.2.2 fine", "wrong-architecture"),
    ("MPS backend is available on my M1 and training is fast", "wrong-architecture"),
    # an arm64 wheel tag is the right one
    ("no wheels with a matching platform tag (e.g. `macosx_14_0_arm64`) for tensorflow-text", "wrong-architecture"),
    # Jupyter works: no claim
    ("torch works in jupyter notebook and in the terminal", "interpreter-mismatch"),
]


# texts of success: no claim at all
HEALTHY = [
    "The GPU compute capability in your current machine is 86 and training runs fine with Paddle",
    "We run the job on the gpu node and it finishes in an hour",
    "The notebook runs in Jupyter Lab on the cluster",
]


def test_pip_arbitrary_equality_names_the_release() -> None:
    # `pip install torch===1.3.0` (PEP 440 arbitrary equality) is as much a release as ==1.3.0
    assert mentioned_versions("pip3 install torch===1.3.0 torchvision===0.4.1") == {"torch": {"1.3.0"}}


DLL_FAILED = "ImportError: DLL load failed: The specified module could not be found."


def test_the_machine_release_is_a_candidate_when_the_text_fails_to_load() -> None:
    # the text names no release, the machine has one the table lists for Windows: the
    # regression is a candidate (and first), not only a weight on candidates the text proposed
    ranked = shown_slugs(DLL_FAILED, os="windows", torch_version="1.3.0")
    assert ranked[0] == "known-bad-release"
    # an unlisted release, another OS, or a text that is no load failure: not claimed by the
    # release table (word evidence may still list it, below the rules: words=False)
    assert "known-bad-release" not in shown_slugs(DLL_FAILED, words=False, os="windows", torch_version="1.3.1")
    assert "known-bad-release" not in shown_slugs(DLL_FAILED, words=False, os="linux", torch_version="1.3.0")
    oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"
    assert "known-bad-release" not in shown_slugs(oom, words=False, os="windows", torch_version="1.3.0")


def test_the_english_words_of_error_1114_are_a_dll_initialisation_failure() -> None:
    # Windows' English text is "A dynamic link library (DLL) initialization routine failed",
    # not only "DLL initialization routine failed"
    text = ("ImportError: DLL load failed while importing _native: A dynamic link library (DLL) "
            "initialization routine failed.")
    assert shown_slugs(text)[0] == "missing-vc-runtime"
    assert "known-bad-release" in shown_slugs(text)[:3]


ONNX_1114 = ('  File "C:\\env\\lib\\site-packages\\onnx\\__init__.py", line 77, in <module>\n'
             "ImportError: DLL load failed while importing onnx_cpp2py_export: A dynamic link library (DLL) "
             "initialization routine failed.")


def test_onnx_native_module_failing_on_windows_is_the_listed_release() -> None:
    assert shown_slugs(ONNX_1114)[0] == "known-bad-release"
    # the text names another onnx release: the regression is not claimed
    assert shown_slugs(ONNX_1114 + "\nonnx==1.15.0")[0] != "known-bad-release"


def test_a_listed_machine_release_outweighs_a_weak_textual_lead() -> None:
    # "Error loading ... or one of its dependencies" barely points at a release (its weight is
    # small); the machine's torch 2.4.0 on Windows, listed for this very failure, decides
    text = ('OSError: Error loading "C:\\v\\Lib\\site-packages\\torch\\lib\\cudnn_ops64_9.dll" '
            "or one of its dependencies.")
    assert shown_slugs(text)[0] != "known-bad-release"
    assert shown_slugs(text, os="windows", torch_version="2.4.0")[0] == "known-bad-release"
    assert shown_slugs(text, os="windows", torch_version="2.5.1")[0] != "known-bad-release"


@pytest.mark.parametrize("text, among", [
    # a title or one sentence that says an import failed, with no traceback: the generic causes
    # of a failed import, with low confidence and what to run to tell them apart
    ("import tensorflow fails on my laptop since yesterday", "interpreter-mismatch"),
    ("Erro ao importar numpy no meu projeto", "interpreter-mismatch"),
    ("I can't install pytorch on this machine, pip stops with a red message", "unsupported-python"),
    ("Error running pip: install --upgrade torch==2.1.0+cu121 --index-url", "unsupported-python"),
    # torch's native core failed at its call site, and nothing says why
    ('  File "C:\\py\\lib\\site-packages\\torch\\__init__.py", line 80, in <module>\n    from torch._C import *',
     "missing-vc-runtime"),
])
def test_a_failure_told_in_words_gets_an_honest_low_answer(text: str, among: str) -> None:
    # the error's shape alone ranks its usual causes ...
    shapes = diagnose_text(text, words=False)
    assert shapes.shown and shapes.shown[0].slug == among and shapes.shown[0].confidence < 0.3
    # ... and with the words it shares with confirmed reports the answer stays low and says so
    report = diagnose_text(text)
    assert report.shown and report.shown[0].confidence < 0.3
    assert among in [c.slug for c in report.shown]
    assert any("no rule fits this text well" in n for n in report.notes)


@pytest.mark.parametrize("text", [
    "import torch works without errors now, thanks",
    "I was able to install torch and tensorflow in the same environment",
    "The installer could not be simpler: pip install tensorflow and it works",
])
def test_words_of_success_get_no_answer(text: str) -> None:
    assert shown_slugs(text) == []
