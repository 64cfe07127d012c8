"""Mechanism-level rules, twenty-second round (issue 14, item 2): written on generation 17's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # a package's own import-time check, in Numba's older form (no "Got ...")
    ("  File \"/opt/app/env/lib/python3.10/site-packages/numba/__init__.py\", line 42, in _ensure_critical_deps\n"
     "    raise ImportError(\"Numba needs NumPy 1.24 or less\")\nImportError: Numba needs NumPy 1.24 or less",
     "requirement-conflict"),
    # setuptools' and pkg_resources' own version conflicts
    ("Installed /usr/local/lib/python3.11/dist-packages/foo-1.0-py3.11.egg\n"
     "error: librosa 0.9.2 is installed but librosa>=0.10.0 is required by {'audiokit'}", "requirement-conflict"),
    ("pkg_resources.ContextualVersionConflict: (protobuf 3.20.3 (/srv/venv/lib/python3.9/site-packages), "
     "Requirement.parse('protobuf>=4.21'), {'grpcio-tools'})", "requirement-conflict"),
    # pyannote's misleading message after speechbrain 1.0 moved its pretrained module
    ("ImportError: 'speechbrain' must be installed to use 'speechbrain/spkrec-ecapa-voxceleb' embeddings. "
     "Visit https://speechbrain.github.io for installation instructions.", "requirement-conflict"),
    # a plug-in's own check of the package it extends
    ("[Nunchaku] ComfyUI-nunchaku 1.2.0 is not compatible with nunchaku 1.0.3, please update", "companion-mismatch"),
    # pip's Python range, unquoted as a builder log writes it
    ("ERROR: Package 'audiokit' requires a different Python: 3.9.18 not in >=3.10", "unsupported-python"),
    # torchao's and AutoGPTQ's kernels for another torch
    ("Skipping import of cpp extensions due to incompatible torch version 2.8.0+cu126 for torchao version 0.13.0",
     "extension-abi-mismatch"),
    ("WARNING - CUDA extension not installed.\nWARNING - exllama_kernels not installed.", "extension-abi-mismatch"),
    # an API the scientific stack removed, imported by a package written before
    ("    from gensim import models\nImportError: cannot import name 'triu' from 'scipy.linalg'",
     "requirement-conflict"),
    # NumPy 2's copy keyword and Keras 3's never-called layer, from packages written before them
    ("    return labels, np.array(probs, copy=False)\nValueError: Unable to avoid copy while creating an array "
     "as requested.", "numpy-abi-mismatch"),
    ("    face_objs = DeepFace.extract_faces(img)\nValueError: The layer sequential_2 has never been called and "
     "thus has no defined input.", "companion-mismatch"),
    # mediapipe's graph protos with a protobuf 4 runtime
    ('[libprotobuf ERROR] Error parsing text-format mediapipe.CalculatorGraphConfig: 38:7: '
     'type "mediapipe.CalculatorOptions" has no field named "ext".', "requirement-conflict"),
    # MeCab with no dictionary data
    ("Failed initializing MeCab. Please see the README for possible solutions:\n"
     "param.cpp(69) [ifs] no such file or directory: /srv/venv/lib/python3.11/site-packages/unidic/dicdir/mecabrc",
     "missing-shared-library"),
    # uv: no wheel for this CPU among the platforms it lists
    ("  x No solution found when resolving dependencies:\n  `-> Because decord==0.6.0 has no wheels with a matching "
     "platform tag (e.g., `manylinux_2_39_aarch64`) and you require decord==0.6.0, we can conclude that your "
     "requirements are unsatisfiable.\n\n      hint: Wheels are available for `decord` (v0.6.0) on the following "
     "platforms: `manylinux2010_x86_64`, `win_amd64`\n", "wrong-architecture"),
    # NumPy 2's refusal, pasted cut after its first line
    ("The first line of the command line is: A module that was compiled using NumPy 1.x cannot be run in.",
     "numpy-abi-mismatch"),
    # jax's removed config API, called by an older flax
    ("    flax_filter_frames = define_bool_state(\nAttributeError: 'Config' object has no attribute "
     "'define_bool_state'", "requirement-conflict"),
    # the user's words: installed, and the IDE still fails
    ("opencv-python is already installed but PyCharm still says No module named cv2", "interpreter-mismatch"),
    # a build tool that is not on the PATH, in Windows' and bash's words
    ("C:\\cmdstan> mingw32-make build\n'mingw32-make' is not recognized as an internal or external command,\n"
     "operable program or batch file.", "extension-build-env"),
    ("running build_ext\n/bin/bash: line 1: cargo: command not found", "extension-build-env"),
    # round 22, second part, on generation 17's used-up held-out cases
    # the hosted notebook moved its Python or its CUDA under the code
    ("The notebook stopped working: Google Colab has upgraded the default Python runtime to 3.12 and the pinned "
     "onnx wheel will not install", "unsupported-python"),
    ("It ran until last week, before Kaggle updated its images to CUDA 12.6; now the extension fails",
     "cuda-toolkit-mismatch"),
    # numba's extension under a NumPy it does not support
    ("    from numba.core.typeconv import _typeconv\nSystemError: initialization of _internal failed without "
     "raising an exception", "requirement-conflict"),
    # mmcv installed without its compiled ops
    ("    from mmcv.ops import nms\nModuleNotFoundError: No module named 'mmcv._ext'", "wrong-index-variant"),
    # the user's measurement of an idle GPU
    ("I built dlib with CUDA but there is no activity on my GPU and the speed is the same", "cpu-only-build"),
    # uv's hint for an undeclared build dependency, and a setup.py that reads CUDA from a CPU torch
    ("  hint: This error likely indicates that `mamba-ssm@2.2.2` depends on `torch`, but doesn't declare it as a "
     "build dependency.", "extension-build-env"),
    ("    CUDA_VERSION = \"\".join(torch.version.cuda.split(\".\"))\nAttributeError: 'NoneType' object has no "
     "attribute 'split'", "code-requires-cuda"),
    ("AssertionError: AWQ kernels could not be loaded. Please install them from "
     "https://github.com/casper-hansen/AutoAWQ_kernels", "extension-abi-mismatch"),
    # a release published without one of its dependencies
    ("    from keras_cv import layers\nModuleNotFoundError: No module named 'keras_core'", "known-bad-release"),
    # an Apple-silicon-only package asked for by an x86_64 Python
    ("ERROR: No matching distribution found for tensorflow-silicon", "wrong-architecture"),
    # zsh's word order for a build tool that is not there
    ("  running build_ext\nzsh: command not found: make", "extension-build-env"),
    # pip's verbose log of a source build of a package that ships wheels
    ("  Building wheel for numpy (setup.py): started\n  Building wheel for numpy (setup.py): finished with status "
     "'error'\n  ERROR: Command errored out with exit status 1", "unsupported-python"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a Python version in the package's own words is the Python's range, not another package's
    ("This tool needs Python 3.10 or greater", "requirement-conflict"),
    # a file format or a Python named as not compatible
    ("model.gguf v3 is not compatible with python 3.8", "companion-mismatch"),
    # a package that is truly missing, named by pyannote's words without its model
    ("ImportError: 'speechbrain' must be installed to use this feature. pip install speechbrain",
     "requirement-conflict"),
    # tf.keras 2's own message for a user's model: "input shape"
    ("ValueError: The layer model_3 has never been called and thus has no defined input shape.",
     "companion-mismatch"),
    ("ValueError: The layer model_3 has never been called and thus has no defined input_shape.",
     "companion-mismatch"),
    # uv on an x86_64 machine: a Python or a glibc, not the CPU; and an ARM wheel in the list
    ("Because torch==2.1.0 has no wheels with a matching platform tag (e.g., `manylinux_2_27_x86_64`) and you "
     "require torch==2.1.0, we can conclude that your requirements are unsatisfiable.\n\n  hint: Wheels are "
     "available for `torch` (v2.1.0) on the following platforms: `manylinux1_x86_64`, `win_amd64`",
     "wrong-architecture"),
    ("Because foo==1.0 has no wheels with a matching platform tag (e.g., `manylinux_2_39_aarch64`) and you require "
     "foo==1.0, we can conclude that your requirements are unsatisfiable.\n\n  hint: Wheels are available for "
     "`foo` (v1.0) on the following platforms: `manylinux_2_17_aarch64`, `win_amd64`", "wrong-architecture"),
    # an IDE named in a sentence that is not about importing what was installed
    ("I installed the new driver but Jupyter shows CUDA out of memory", "interpreter-mismatch"),
    ("torch is installed but VS Code shows a warning about the Python extension", "interpreter-mismatch"),
    # an app's own command that is not on the PATH: not a build tool
    ("'mlagents-learn' is not recognized as an internal or external command", "extension-build-env"),
    # Colab's own release notes of a Python it did not move to; a GPU busy at 0% only in prose
    ("Colab still runs Python 3.10 and CUDA 12.2 this week", "unsupported-python"),
    ("GPU usage is 95% during training, no problem", "cpu-only-build"),
    # a package merely named after an architecture, found
    ("Collecting tensorflow-metal\n  Downloading tensorflow_metal-1.1.0-cp311-cp311-macosx_12_0_arm64.whl",
     "wrong-architecture"),
    # the fresh-eyes review's look-alikes
    ("Requirement already satisfied: tqdm in /home/u/.local/lib/python3.10/site-packages\n"
     "ImportError: Numba needs NumPy 2.1 or less. Got NumPy 2.2.", "user-site-shadowing"),
    ("$ nvcc --version\nbash: nvcc: command not found\nOSError: libcudnn.so.8: cannot open shared object file: "
     "No such file or directory", "extension-build-env"),
    ("echo 'rustc: command not found, skipping optional rust build'", "extension-build-env"),
    ("numpy is installed but pycharm shows an error: CUDA out of memory", "interpreter-mismatch"),
    ("torch was installed but jupyter says RuntimeError: CUDA error: device-side assert triggered",
     "interpreter-mismatch"),
    ("Python 3.12.1 is not compatible with tensorflow 2.10.0", "companion-mismatch"),
    ("Kernel 5.15.0 is not compatible with nvidia 550.54", "companion-mismatch"),
    ("RuntimeError: This program needs CMake 3.18 or higher", "requirement-conflict"),
    ("ImportError: cannot import name '_ccallback_c' from 'scipy._lib'", "requirement-conflict"),
    ("Note: A module that was compiled using NumPy 1.x cannot be run in NumPy 2 -- we rebuilt everything",
     "numpy-abi-mismatch"),
    # the same verbose step for a package that ships no wheels: a build environment
    ("  Building wheel for dlib (setup.py): finished with status 'error'", "unsupported-python"),
]

# words of success: no answer
HEALTHY = [
    "Numba 0.60.0 with NumPy 2.0.2: all checks passed",
    "Successfully installed speechbrain-1.0.2 pyannote.audio-3.3.2",
    "Loaded torchao 0.13.0 cpp extensions for torch 2.8.0",
    "Successfully installed keras-core-0.1.7 keras-cv-0.6.4",
    "  Building wheel for numpy (setup.py): finished with status 'done'",
]


def test_autogptq_kernel_warnings_are_only_a_lead() -> None:
    """AutoGPTQ prints "CUDA extension not installed." in runs that work, too (the review's
    reproducer ends in an unrelated out-of-memory error): a lead, below the confidence of a
    recognised mechanism."""
    shown = diagnose_text("WARNING - CUDA extension not installed.\ntorch.cuda.OutOfMemoryError: CUDA out of "
                          "memory. Tried to allocate 2.00 GiB").shown
    assert shown and shown[0].slug == "extension-abi-mismatch" and shown[0].confidence < 0.5
