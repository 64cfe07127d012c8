"""Mechanism-level rules, twenty-seventh round (issue 14, item 2): written on generation 22's train
cases, and its last rules on its held-out cases after their one measurement (when they joined
train); each with a text of our own writing (not a corpus case) and a look-alike it must not
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
    # a jax flag a later jax removed, read by a library
    ('  File "/opt/conda/lib/python3.11/site-packages/flax/linen/module.py", line 77, in wrapped\n'
     "AttributeError: 'Config' object has no attribute 'jax_enable_custom_prng'", "requirement-conflict"),
    # syntax of a later Python evaluated by an older one
    ('  File "/home/u/.venv/lib/python3.8/site-packages/optax/_src/base.py", line 30, in <module>\n'
     "    def init(params: dict[str, Any]) -> list[int]:\nTypeError: 'type' object is not subscriptable",
     "unsupported-python"),
    ("    Shape = tuple[int, ...] | None\nTypeError: unsupported operand type(s) for |: 'types.GenericAlias' and "
     "'NoneType'", "unsupported-python"),
    # DirectML finds no adapter it can use
    ("2024-01-02 10:00:00.1 I tensorflow/c/logging.cc:34] DirectML device enumeration: found 0 compatible adapters.",
     "gpu-arch-unsupported"),
    # TensorFlow on Apple Silicon lists no GPU
    ("I'm on an Apple M2 Pro with tensorflow 2.16.\n>>> tf.config.list_physical_devices('GPU')\n[]",
     "cpu-only-build"),
    ("pip install tensorflow-2.13.0-cp311-cp311-macosx_12_0_arm64.whl\n"
     "In [2]: tf.config.list_physical_devices(\"GPU\")\nOut[2]: []", "cpu-only-build"),
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
    # the user's own object's config, not jax's
    ("AttributeError: 'Config' object has no attribute 'batch_size'", "requirement-conflict"),
    # subscripting an object that is no type: the user's own bug
    ("TypeError: 'int' object is not subscriptable", "unsupported-python"),
    ("TypeError: unsupported operand type(s) for |: 'int' and 'str'", "unsupported-python"),
    # DirectML found its adapter
    ("DirectML device enumeration: found 1 compatible adapters.", "gpu-arch-unsupported"),
    # a GPU listed on the Mac, and an empty list on a Linux box
    ("Apple M1 Max, tensorflow-metal 1.1\n>>> tf.config.list_physical_devices('GPU')\n"
     "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]", "cpu-only-build"),
]

# words of success: no answer
HEALTHY = [
    "cuDNN version: 8902 (PyTorch compiled against 8902, linked against 8902)",
    "jax.tree_util.tree_map works: module 'jax' has the attribute since 0.4",
    "tensorflow-metal installed on my Apple M3; tf.config.list_physical_devices('GPU') shows the GPU, works great",
]
