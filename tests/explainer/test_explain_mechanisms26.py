"""Mechanism-level rules, twenty-sixth round (issue 14, item 2): written on generation 21's train
cases, and its last rules on its held-out cases after their one measurement (when they joined
train); each with a text of our own writing (not a corpus case) and a look-alike it must not
claim. The wheel table's own round is tests/explainer/test_explain_pins.py."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # a framework's public submodule imported from another installed package: written for another release
    ("Traceback (most recent call last):\n"
     '  File "/opt/venv/lib/python3.9/site-packages/paddlenlp/transformers/model_utils.py", line 31, in <module>\n'
     "    from paddle.utils.download import is_url\n"
     "ModuleNotFoundError: No module named 'paddle.utils.download'", "companion-mismatch"),
    ('  File "C:\\Users\\me\\env\\lib\\site-packages\\torchmetrics\\utilities\\imports.py", line 8, in <module>\n'
     "    from torch.ao.quantization import QConfig\n"
     "ModuleNotFoundError: No module named 'torch.ao'", "companion-mismatch"),
    # pip building torch from its source placeholder
    ("Running setup.py install for torch ... error\n    ModuleNotFoundError: No module named 'tools.nnwrap'\n"
     "ERROR: Command errored out with exit status 1", "wrong-index-variant"),
    # two OpenCV builds in one cv2 folder
    ('  File "/home/u/.local/lib/python3.10/site-packages/cv2/typing/__init__.py", line 171, in <module>\n'
     "    LayerId = cv2.dnn.DictValue\nAttributeError: module 'cv2.dnn' has no attribute 'DictValue'",
     "duplicate-install"),
    # a TensorFlow add-on's module missing what it takes from TensorFlow
    (">>> import tensorflow_hub as hub\nAttributeError: module 'tensorflow_hub.tf_v1' has no attribute 'estimator'",
     "companion-mismatch"),
    # JAX's CUDA plugin on a host without a GPU
    ("E0826 jax._src.xla_bridge: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.",
     "gpu-build-without-gpu"),
    # bitsandbytes cannot load a CUDA runtime
    ("RuntimeError:\n        CUDA Setup failed despite GPU being available. Inspect the CUDA SETUP outputs above",
     "missing-shared-library"),
    # TensorFlow runs without its GPU libraries
    ("W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot dlopen some GPU libraries. "
     "Skipping registering GPU devices...", "cuda-toolkit-mismatch"),
    # two OpenMP runtimes: a crash in the runtime's own thread functions
    ("Segmentation fault\n    #0 0x1213f0cf0 in void __kmp_suspend_64<false, true>(int, kmp_flag_64<false, true>*)"
     "+0x30 (libomp.dylib:arm64+0x54cf0)\n    #3 0x1217400e4 in __kmp_fork_barrier(int, int)+0x270",
     "duplicate-openmp"),
    # the order in the user's words, with the first import as the subject
    ("The segfault happens when `lightgbm` is imported before `torch`; it does not occur otherwise.",
     "import-order-conflict"),
    # an old keras beside a newer TensorFlow
    ("---> 19 import keras_preprocessing\nModuleNotFoundError: No module named 'keras_preprocessing'",
     "companion-mismatch"),
    # a framework module a later release removed
    ("    from paddle.fluid.layer_helper import LayerHelper\nModuleNotFoundError: No module named 'paddle.fluid'",
     "companion-mismatch"),
    ("    import tensorflow.contrib.slim as slim\nModuleNotFoundError: No module named 'tensorflow.contrib'",
     "companion-mismatch"),
    # an extension's source naming a torch API the installed headers lack
    ("csrc/scatter.cpp:12:24: error: 'torch::autograd::Function' has not been declared\n"
     "error: command 'gcc' failed with exit status 1", "companion-mismatch"),
    # FastDeploy loads with the CUDA toolkit it found on PATH, and fails
    ("[FastDeploy][INFO]:  Successfully found CUDA ToolKit from system PATH env -> C:\\CUDA\\v10.2\\bin\n"
     "ImportError: DLL load failed while importing fastdeploy_main", "cuda-toolkit-mismatch"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # the framework's own file importing its own submodule: a broken install, not a companion
    ('  File "/opt/venv/lib/python3.9/site-packages/torch/__init__.py", line 1, in <module>\n'
     "    from torch._C import *\nModuleNotFoundError: No module named 'torch._C'", "companion-mismatch"),
    # a file named like the framework shadows it
    ('  File "/home/u/work/tensorflow.py", line 3, in <module>\n    from tensorflow.python import debug\n'
     "ImportError: No module named 'tensorflow.python'", "companion-mismatch"),
    # another attribute of cv2.dnn
    ("AttributeError: module 'cv2.dnn' has no attribute 'readNetFromONNX2'", "duplicate-install"),
    # an object of the add-on, not its module
    ("AttributeError: 'KerasLayer' object has no attribute 'estimator'", "companion-mismatch"),
    # another backend JAX could not start, on a machine that has none of it
    ("Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so", "gpu-build-without-gpu"),
    # an OpenMP setting's name, no crash in the runtime
    ("I set KMP_AFFINITY=granularity=fine and __kmp_env_print shows it", "duplicate-openmp"),
    # a module of the user's own package, not the framework's removed one
    ("ModuleNotFoundError: No module named 'paddle_fluid_utils'", "companion-mismatch"),
    # a name the user's own code lacks
    ("main.cpp:5:3: error: 'myproject::Tensor' has not been declared", "companion-mismatch"),
    # an import's timing against a setting, no crash (the fresh-eyes review's texts)
    ("XLA_FLAGS has no effect if jax is imported before the variable is set", "import-order-conflict"),
    ("CUDA_VISIBLE_DEVICES is ignored when torch is imported before os.environ is updated", "import-order-conflict"),
    # the user's own file on a path with .., and TensorFlow's own tensorflow_core folder
    ('  File "/home/u/proj/../src/train.py", line 3, in <module>\n    from torch.utils.tensorboard import W\n'
     "ModuleNotFoundError: No module named 'torch.utils.tensorboard'", "companion-mismatch"),
    ('  File "/usr/lib/python3/dist-packages/tensorflow_core/python/x.py", line 3, in <module>\n'
     "    from tensorflow.python.eager import y\nModuleNotFoundError: No module named 'tensorflow.python.eager'",
     "companion-mismatch"),
    # idle OpenMP pool threads in a backtrace of all threads; the crash is elsewhere
    ("Thread 1 (crashed)\n#0  0x00007f in cuInit () from /usr/lib/libcuda.so.1\nThread 5\n"
     "#0  0x00007f in __kmp_suspend_64 () from libiomp5.so\n#1  0x00007f in __kmp_fork_barrier ()",
     "duplicate-openmp"),
]

# words of success: no answer
HEALTHY = [
    "from paddle.utils.download import get_path_from_url works again after pip install paddlepaddle==2.6.1",
    "Successfully built torch from source (tools/nnwrap generated the bindings).",
    "cv2.dnn.DictValue is available in opencv 4.9.0",
    "CUDA SETUP: Detected CUDA version 118\nCUDA SETUP: Loading binary ... done",
    "[FastDeploy][INFO]:  Successfully found CUDA ToolKit from system PATH env -> C:\\CUDA\\v11.2\\bin\nmodel loaded",
]
