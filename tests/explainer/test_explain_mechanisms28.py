"""Mechanism-level rules, twenty-eighth round (issue 14, item 2): written on generation 23's train
cases; each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a pre-AVX CPU named beside TensorFlow's native runtime failing to load
    ("Processor: Intel(R) Xeon(R) CPU E5620 @ 2.40GHz, Windows Server 2012\n"
     "ImportError: DLL load failed while importing _pywrap_tensorflow_internal", "cpu-instructions-unsupported"),
    # torch's JIT extension build failing, seen through its own frames before the last line
    ('  File "/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 2104, in '
     "_run_ninja_build\n    raise RuntimeError(message) from e", "extension-build-env"),
    # the ARM extension the core lacks, named by the user
    ("Our Cortex-A53 board does not have LSE atomics.\n$ python3 -c 'import torch'\n"
     "Illegal instruction (core dumped)", "cpu-instructions-unsupported"),
    # a program started without the driver's library (a container without the NVIDIA runtime)
    ("$ docker compose up\nworker-1  | ./server: error while loading shared libraries: libcuda.so.1: "
     "cannot open shared object file: No such file or directory", "gpu-build-without-gpu"),
    # a wheel linked for 4 KiB pages on a 64 KiB-page kernel
    ("OSError: /srv/venv/lib/python3.9/site-packages/numpy/core/_multiarray_umath.cpython-39-aarch64-linux-gnu.so: "
     "ELF load command alignment not page-aligned", "known-bad-release"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a CPU with AVX (Broadwell) beside the same failure
    ("Processor: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n"
     "ImportError: DLL load failed while importing _pywrap_tensorflow_internal", "cpu-instructions-unsupported"),
    # cpp_extension imported, failing on numpy: no build ran
    ('  File "/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py", line 25, in <module>\n'
     "ImportError: numpy.core.multiarray failed to import", "extension-build-env"),
    # a core that has LSE
    ("aarch64 server, a Neoverse N1 that supports LSE atomics, and still:\n$ python3 -c 'import torch'\n"
     "Illegal instruction (core dumped)", "cpu-instructions-unsupported"),
    # a program's own library missing, not the driver's
    ("./server: error while loading shared libraries: libonnxruntime.so.1.16.0: cannot open shared object file: "
     "No such file or directory", "gpu-build-without-gpu"),
    # a misaligned segment is a damaged file, not a release built for other pages
    ("ImportError: /app/lib/libfoo.so: ELF load command address/offset not properly aligned", "known-bad-release"),
]

# words of success: no answer
HEALTHY = [
    "Built the extension with torch.utils.cpp_extension.load in 40 s, no errors",
    "My Cortex-A76 has LSE atomics and torch 2.6 runs fine",
]
