"""Mechanism-level rules, thirtieth round (issue 14, item 2): written on generation 25's train
cases; each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # the user's statement that a named release's wheel for one platform is broken
    ("The published fastlib 1.2.3 wheel for Linux aarch64 appears to be broken:\n"
     "Segmentation fault (core dumped)", "known-bad-release"),
    # conda's row for pytorch whose build string is a CPU build, beside code that needs CUDA
    ("AssertionError: CUDA is required\n$ conda list pytorch\n# Name  Version  Build  Channel\n"
     "pytorch                   2.0.1           cpu_py310hdc00b08_0    defaults", "cpu-only-build"),
    ("RuntimeError: no GPU found\npytorch                   1.13.1          py3.9_cpu_0    pytorch",
     "cpu-only-build"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a question about a release, not a statement
    ("Is the fastlib 1.2.3 wheel for Linux appears to be broken for others too?", "known-bad-release"),
    # a CPU build listed beside code that merely names CUDA, failing on something else
    ('device = "cuda" if torch.cuda.is_available() else "cpu"\n'
     "ModuleNotFoundError: No module named 'cv2'\n"
     "pytorch                   2.1.0           cpu_mkl_py310h3ea73d3_100    conda-forge", "cpu-only-build"),
    # conda's CUDA build of pytorch
    ("AssertionError: CUDA is required\n"
     "pytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch", "cpu-only-build"),
]

# words of success: no answer
HEALTHY = [
    "pytorch                   2.0.1           cpu_py310hdc00b08_0    defaults",
]
