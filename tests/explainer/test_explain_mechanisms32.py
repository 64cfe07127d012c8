"""Mechanism-level rules, thirty-second round (issue 14, item 2): written on generation 26's
first train cases; each with a text of our own writing (not a corpus case) and a look-alike it
must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # an app's own diagnosis after its CUDA kernel failed to build, the ninja line beside it
    ("Failed to load model - Failed to enable custom CUDA kernel, ninja is required to load C++ extensions. "
     "You may be using the CPU version of PyTorch, please reinstall PyTorch with CUDA.", "cpu-only-build"),
    ("加载失败 - 你可能正在使用CPU版本的PyTorch，请重新安装CUDA版本的PyTorch。", "cpu-only-build"),
    # the user's statement that a named release has a flaw
    ("The image runs fastlib 2.3.0, which has a known bug: every GPU call fails with an internal error.",
     "known-bad-release"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # ninja missing without the app's word on the build: the build environment
    ("RuntimeError: Ninja is required to load C++ extensions", "cpu-only-build"),
    # a question
    ("Does fastlib 2.3.0 have a known bug? The GPU call fails.", "known-bad-release"),
    # an app's help text, conditional: not its diagnosis
    ("Note: if you are using the CPU version of PyTorch, pass --device cpu.\nRuntimeError: CUDA out of memory.",
     "cpu-only-build"),
]

# words of success: no answer
HEALTHY = [
    "Upgraded to fastlib 2.3.1, which has a fix for the bug; everything works now.",
    "Upgraded to fastlib 2.3.1, which has a bug fix for this; everything works now.",
]
