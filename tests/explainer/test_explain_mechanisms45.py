"""Mechanism-level rules, forty-fifth round (issue 14, item 2): written on generation 34's
train reports and, after their one measurement, its held-out ones; each with a text of our
own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

#: the round's rules, not word evidence, put each case's cause first
#: (test_explain_mechanism_rounds.py checks it with words=False)
RULES_ALONE = True

# (text, the cause the mechanism implies first)
CASES = [
    # onnxruntime 1.16.0's CPU package refusing a session without providers
    ("  sess = ort.InferenceSession(path)\nValueError: This ORT build has "
     "['AzureExecutionProvider', 'CPUExecutionProvider'] enabled. Since ORT 1.9, you are required "
     "to explicitly set the providers parameter when instantiating InferenceSession.",
     "known-bad-release"),
    # OMP #15 cut after the library's name, and without its "OMP:" prefix
    ("OMP: Error #15: Initializing libiomp5md.dll,,OMP: Hint This means", "duplicate-openmp"),
    ("P: Error #15: Initializing libiomp5.dylib, but found libomp.dylib already initialized.",
     "duplicate-openmp"),
    # the driver's PTX JIT older than the PTX it is given
    ("numba.cuda.cudadrv.driver.LinkerError: ptxas application ptx input, line 9; fatal   : "
     "Unsupported .version 8.1; current version is '7.8'", "driver-too-old"),
    # a program's own minimum-driver check, with the driver it found
    ("RuntimeError: this engine requires a minimum driver version of 535 but your driver version "
     "is 470.82", "driver-too-old"),
    ("ValueError: failed to create device: Foo doesn't support your current NVIDIA GPU driver.",
     "driver-too-old"),
    # a shared object refused for its executable stack, in the user's words
    ("After the glibc update importing it fails: libfoo_ext.so.2 requires an executable stack",
     "known-bad-release"),
    # the dGPU left unused on a laptop
    ("The app is not using Nvidia but UHD graphics on my Dell laptop", "hybrid-graphics"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # a GPU build's provider list is the ORT >= 1.9 rule, not the 1.16.0 release
    ("ValueError: This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', "
     "'CPUExecutionProvider'] enabled. Since ORT 1.9, you are required to explicitly set the "
     "providers parameter", "known-bad-release"),
    # a toolkit's own ptxas binary older than the compiler (review)
    ("ptxas /tmp/tmpq8z/kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version "
     "is '8.2'", "driver-too-old"),
    # a minimum quoted from documentation, no driver found beside it (review)
    ("The docs say CUDA 12.1 requires a minimum driver version of 525.60.13.\n"
     "AssertionError: Torch not compiled with CUDA enabled", "driver-too-old"),
    # no NVIDIA GPU at all (review: pytorch#39028)
    ("I am not using NVIDIA GPU, but i have Intel HD graphics 4000", "hybrid-graphics"),
    # the linker's warning about an object file, no .so refused (review)
    ("ld: warning: crt1.o: requires executable stack (because the .note.GNU-stack section is "
     "executable)", "known-bad-release"),
]

HEALTHY: list[str] = [
    "onnxruntime 1.16.1 installed; the session runs with providers=['CPUExecutionProvider']",
    "Updated the NVIDIA driver to 550; the program's driver check passes now.",
]

