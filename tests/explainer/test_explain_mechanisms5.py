"""Mechanism-level rules, fifth round (issue 14, item 2): each wrong assumption corrected, shown
with a text of our own writing (not a corpus case) and a text it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.match import is_fallback

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # pip's list holds the release (plain and +cpu) but not the CUDA variant asked for: the
    # release exists for this interpreter, the variant lives on another index
    ("ERROR: Could not find a version that satisfies the requirement torchvision==0.18.1+cu118 "
     "(from versions: 0.17.2, 0.17.2+cpu, 0.18.0, 0.18.1, 0.18.1+cpu)\n"
     "ERROR: No matching distribution found for torchvision==0.18.1+cu118", "wrong-index-variant"),
    # a Python 2 API symbol in an extension of a Python 3 install: two interpreters mixed
    ("ImportError: /opt/py3/lib/python3.8/site-packages/foo/_core.so: undefined symbol: _Py_TrueStruct",
     "pythonpath-pollution"),
    # any CPython API function the interpreter lacks: built for another Python, not another library
    ("ImportError: /usr/lib/python3.6/site-packages/torch/_C.cpython-36m-x86_64-linux-gnu.so: "
     "undefined symbol: PyFPE_jbuf", "interpreter-mismatch"),
    # the user's own script named like the framework is what the import found
    ("Traceback (most recent call last):\n  File \"/home/ana/work/torch.py\", line 1, in <module>\n"
     "    import torch\n  File \"/home/ana/work/torch.py\", line 3, in <module>\n"
     "    x = torch.zeros(3)\nAttributeError: partially done", "shadowed-module"),
    # a framework module without an attribute every release has
    ("AttributeError: module 'torch' has no attribute 'tensor'", "shadowed-module"),
    # an application's start-up check of the interpreter
    ("This program is tested with 3.10.6 Python, but you have 3.12.1.", "unsupported-python"),
    # the user's words: it always runs on the CPU
    ("faster-whisper uses the CPU instead of the GPU even though I have an RTX 3060", "cpu-only-build"),
    # ld.so's wording for two copies of one library: the one loaded is not the one linked
    ("python3: relocation error: /env/lib/libcusparse.so.12: symbol __nvJitLinkGetLinkedCubin_12_4, "
     "version libnvJitLink.so.12 not defined in file libnvJitLink.so.12 with link time reference",
     "dll-version-conflict"),
    # R torch's own words: lantern.dll is there and one of its dependencies is not
    ("Error in cpp_lantern_init(file.path(install_path(), \"lib\")) : "
     "C:\\Users\\r\\AppData\\Local\\R\\win-library\\4.3\\torch\\lib\\lantern.dll - "
     "The specified module could not be found.", "missing-vc-runtime"),
    # torch's newer wording of error 801, without the number
    ("RuntimeError: CUDA error: operation not supported\nCUDA kernel errors might be asynchronously "
     "reported at some other API call", "cuda-ipc-unsupported"),
    # the user's words: one framework installed by two installers
    ("I have both conda pytorch and pip torch in this env and now import torch crashes", "duplicate-install"),
    # Python 2 printed the missing module bare, without quotes
    ("  File \"train.py\", line 1, in <module>\n    import torch\nImportError: No module named torch",
     "interpreter-mismatch"),
    # the user names the stray DLL before the folder
    ("ImportError: DLL load failed while importing cv2: The specified procedure could not be found.\n"
     "There is an old opencv_world3410.dll in C:\\Windows\\System32", "dll-version-conflict"),
    # an install that ran out of disk left a partial copy
    ("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n"
     "now import torch fails", "corrupt-install"),
    # the user's words name the import order
    ("Changing the import order fixes it: with open3d imported in a different order the crash is gone",
     "import-order-conflict"),
    # a package's own import-time check of a dependency's version
    ("ImportError: Numba needs NumPy 1.26 or less. Got NumPy 2.0.", "requirement-conflict"),
    # an extension that names the torch it was built for and the one it found
    ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
     "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.4.1+cu124)", "extension-abi-mismatch"),
    # DGL's per-torch bridge library for this torch is not there
    ("FileNotFoundError: Cannot find DGL C++ tensoradapter_pytorch_2.5.1.so library", "extension-abi-mismatch"),
    # PaddlePaddle's dynamic loader words for a CUDA library it cannot load
    ("RuntimeError: (PreconditionNotMet) Cannot load cublas shared library. Cannot invoke method cublasCreate_v2.\n"
     "  [Hint: cublas_dso_handle should not be null.]", "missing-shared-library"),
    # an application's own banner that CUDA is unavailable
    ("[!] CUDA acceleration is unavailable, running at 2 FPS", "cpu-only-build"),
    # the user's words: a laptop with two GPUs, CUDA finds no device
    ("Laptop with Intel UHD + RTX 4060: cuInit returns error 100 (CUDA_ERROR_NO_DEVICE) but nvidia-smi works",
     "hybrid-graphics"),
    # the traceback's first frame is the user's script, named like the module that lacks the attribute
    ("Traceback (most recent call last):\n  File \"/home/u/copy.py\", line 1, in <module>\n    import torch\n"
     "  File \"/venv/lib/python3.10/site-packages/torch/__init__.py\", line 9, in <module>\n    import copy\n"
     "AttributeError: module 'copy' has no attribute 'deepcopy'", "shadowed-module"),
    # a partially initialized module of any name
    ("AttributeError: partially initialized module 'ultralytics' has no attribute 'YOLO' "
     "(most likely due to a circular import)", "shadowed-module"),
    # the user's words: it works from cmd, not from the IDE
    ("In PyCharm import torch fails. But I use cmd to import torch, it can work.", "interpreter-mismatch"),
    # a ROS launcher's interpreter is not the conda env's
    ("When running roslaunch my_pkg run.launch I get cannot find module pyrr, though I can import it in python",
     "interpreter-mismatch"),
    # protobuf's advice, pasted alone
    ("TypeError: ... 1. Downgrade the protobuf package to 3.20.x or lower.", "requirement-conflict"),
    # .NET's words for LoadLibrary's error 126
    ("System.DllNotFoundException: Unable to load DLL 'onnxruntime' or one of its dependencies: "
     "The specified module could not be found. (Exception from HRESULT: 0x8007007E)", "missing-shared-library"),
    # TensorFlow Probability's import-time check of TensorFlow's version: a pair of one family
    # (round 19: the confirmed reports of it are companion mismatches, none a requirement conflict)
    ("This version of TensorFlow Probability requires TensorFlow version >= 2.14; Detected an installation "
     "of version 2.11.0. Please upgrade TensorFlow to proceed.", "companion-mismatch"),
    # transformers' lazy import wraps a TensorFlow error
    ("RuntimeError: Failed to import transformers.models.bert.modeling_tf_bert because of the following error "
     "(look up to see its traceback):\nNo module named 'keras.engine'", "transitive-framework-import"),
    # torch's bridge to the CUDA driver fails where no NVIDIA driver is
    ("OSError: [WinError 126] The specified module could not be found. Error loading "
     "\"C:\\ComfyUI\\venv\\Lib\\site-packages\\torch\\lib\\caffe2_nvrtc.dll\" or one of its dependencies.",
     "missing-shared-library"),
    # torchvision's own extension fails to load a DLL
    ("----> 2 from torchvision import _C\nImportError: DLL load failed: The specified module could not be found.",
     "companion-mismatch"),
    # a known extension package with an undefined symbol, even cut off
    ("ImportError: /env/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
     "undefined symbol:", "extension-abi-mismatch"),
]


def test_a_nightly_that_lacks_a_library_is_a_release_question() -> None:
    text = ("torch 2.6.0.dev20241112+cu124 from the nightly index\n"
            "OSError: libcudnn_graph.so.9: cannot open shared object file: No such file or directory")
    assert "known-bad-release" in shown_slugs(text)[:2]


def test_a_missing_submodule_is_not_the_framework_missing() -> None:
    # Python 2's bare name stops at the name: torch.distributed.elastic is another question
    top = diagnose_text("ModuleNotFoundError: No module named torch.distributed.elastic").candidates[0]
    assert is_fallback(top), top


# (text, a cause it must not put first) for texts that look alike and show another mechanism
NOT_CLAIMED = [
    # the release itself is not in pip's list: no wheel of it for this Python
    ("ERROR: Could not find a version that satisfies the requirement torch==1.7.1+cu110 "
     "(from versions: 1.11.0, 1.11.0+cu113, 1.12.0+cu113)", "wrong-index-variant"),
    # 12.3.1 is not 2.3.1
    ("ERROR: Could not find a version that satisfies the requirement torch==2.3.1+cu121 "
     "(from versions: 12.3.1, 2.4.0+cu121)", "wrong-index-variant"),
    # a frame of the framework itself, inside site-packages
    ("  File \"/venv/lib/python3.11/site-packages/keras/src/torch.py\", line 4, in <module>\n"
     "ImportError: cannot import name 'x'", "shadowed-module"),
    # an API that TF 2 removed is a version question, not a shadowing file
    ("AttributeError: module 'tensorflow' has no attribute 'placeholder'", "shadowed-module"),
    # a C++ symbol of torch is a library mismatch, not another interpreter
    ("ImportError: /x/site-packages/torchvision/_C.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev",
     "interpreter-mismatch"),
    # a symbol missing between a nightly's own libraries: a nightly mixed with a release
    ("pytorch-nightly\nImportError: /env/lib/python3.7/site-packages/torch/lib/libtorch.so.1: "
     "undefined symbol: _ZTIN2at10TensorImplE", "known-bad-release"),
    # the CPU chosen on purpose is not a failure
    ("I run on the GPU instead of the CPU and it is fast", "cpu-only-build"),
    # "order" in another sense
    ("My order of operations: pip install torch, then run train.py. ModuleNotFoundError: No module named 'torch'",
     "import-order-conflict"),
    # a script whose name is not the module that lacks the attribute
    ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    np.float(1)\n"
     "AttributeError: module 'numpy' has no attribute 'float'", "shadowed-module"),
    # torch's own CUDA library with a symbol of another CUDA: not an extension built for another torch
    ("ImportError: /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
     "cudaGetDriverEntryPointByVersion, version libcudart.so.12", "extension-abi-mismatch"),
    # trying two installers is not having two installs
    ("I tried both conda and pip: neither finds a torch for Python 3.13\n"
     "ERROR: No matching distribution found for torch", "duplicate-install"),
]
