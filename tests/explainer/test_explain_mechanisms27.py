"""Mechanism-level rules, twenty-seventh round (issue 14, item 2): written on generation 22's train
cases; each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a loader that names the procedure first: a torch symbol missing for another package's DLL
    ("Procedure ?size@TensorImpl@c10@@QEBA_JXZ not found in DLL: "
     "D:\\app\\venv\\Lib\\site-packages\\torchaudio\\lib\\libtorchaudio.pyd.dll", "extension-abi-mismatch"),
    ("The procedure entry point ?empty@at@@YA?AVTensor@1@V?$ArrayRef@_J@c10@@ could not be located in the dynamic "
     "link library C:\\py\\Lib\\site-packages\\xformers\\_C.dll", "extension-abi-mismatch"),
    # torch's own check of the cuDNN it loaded
    ("RuntimeError: cuDNN version mismatch: PyTorch was compiled against 8005 but linked against 8201",
     "cuda-toolkit-mismatch"),
    # a library using a part of jax the installed release lacks
    ('  File "/usr/local/lib/python3.10/dist-packages/flax/core/scope.py", line 12, in <module>\n'
     "AttributeError: module 'jax.interpreters.xla' has no attribute 'DeviceArray'", "requirement-conflict"),
    ("AttributeError: module 'jax' has no attribute 'tree_multimap'", "requirement-conflict"),
    # the TPU runtime lacks a function the framework asks it for
    ("F0101 tensorflow/core/tpu/tpu_executor_init_fns.inc:145] TpuCompile_CompileAndBuild not available in this "
     "library.\nAborted (core dumped)", "companion-mismatch"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a torch DLL of torch itself: torch's own libraries disagree, no companion
    ("Procedure ?size@TensorImpl@c10@@QEBA_JXZ not found in DLL: "
     "C:\\py\\Lib\\site-packages\\torch\\lib\\torch_cpu.dll", "extension-abi-mismatch"),
    # a symbol of the package itself, not torch's
    ("Procedure ?run@Decoder@codec@@QEAAXXZ not found in DLL: C:\\py\\Lib\\site-packages\\av\\avcodec-61.dll",
     "extension-abi-mismatch"),
    # cuDNN versions that agree
    ("cuDNN version: PyTorch was compiled against 8902 and linked against 8902", "cuda-toolkit-mismatch"),
    # an attribute of the user's own object, and a module named like jax
    ("AttributeError: 'jax_model' object has no attribute 'params'", "requirement-conflict"),
    ("AttributeError: module 'jaxtyping' has no attribute 'Float32'", "requirement-conflict"),
    # jax.random.KeyArray has its own mechanism (a torch program importing jax through diffusers)
    ("AttributeError: module 'jax.random' has no attribute 'KeyArray'", "requirement-conflict"),
    # a feature the user's own library does not offer
    ("Feature X not available in this library build; see the docs", "companion-mismatch"),
]

# words of success: no answer
HEALTHY = [
    "cuDNN version: 8902 (PyTorch compiled against 8902, linked against 8902)",
    "jax.tree_util.tree_map works: module 'jax' has the attribute since 0.4",
]
