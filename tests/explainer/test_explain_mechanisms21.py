"""Mechanism-level rules, twenty-first round (issue 14, item 2): written on generation 16's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # an interpreter built without one of its own C modules
    ("  File \"/home/u/.pyenv/versions/3.11.9/lib/python3.11/lzma.py\", line 27, in <module>\n"
     "    from _lzma import *\nModuleNotFoundError: No module named '_lzma'", "missing-shared-library"),
    ("  File \"/usr/local/lib/python3.12/sqlite3/__init__.py\", line 57, in <module>\n"
     "    from sqlite3.dbapi2 import *\nModuleNotFoundError: No module named '_sqlite3'", "missing-shared-library"),
    ("/opt/venv/lib/python3.9/site-packages/pandas/compat/__init__.py:124: UserWarning: Could not import "
     "the lzma module. Your installed Python is incomplete.", "missing-shared-library"),
    ("  File \"/srv/app/build/env/lib/python2.7/site-packages/tarfile_ext.py\", line 4\n"
     "ImportError: No module named bz2", "missing-shared-library"),
    ("  File \"/usr/lib/python3.12/ctypes/__init__.py\", line 8, in <module>\n"
     "    from _ctypes import Union, Structure\nModuleNotFoundError: No module named '_ctypes'",
     "missing-shared-library"),
    # a package that ships wheels, built from source: no wheel fits this Python
    ("Collecting tokenizers<0.14,>=0.11.1\n  Building wheel for tokenizers (pyproject.toml) ... error\n"
     "  error: can't find Rust compiler\nERROR: Failed building wheel for tokenizers", "unsupported-python"),
    ("  x Failed to build `numpy==1.24.4`\n  |-> The build backend returned an error\n"
     "error: Failed to build installable wheels for some pyproject.toml based projects (numpy)",
     "unsupported-python"),
    ("  - Installing pydantic-core (2.14.5): Failed\n  ChefBuildError\n  maturin failed\n"
     "  Caused by: Cargo metadata failed. Do you have cargo in your PATH?", "unsupported-python"),
    # Docker's refusal of an image for another CPU
    ("WARNING: The requested image's platform (linux/amd64) does not match the detected host platform "
     "(linux/arm64/v8) and no specific platform was requested\nexec /usr/bin/python3: exec format error",
     "wrong-architecture"),
    # a file that is no ELF at all
    ("ImportError: /var/task/numpy/core/_multiarray_umath.so: invalid ELF header", "wrong-architecture"),
    # protobuf's runtime older than the generated code
    ("  File \"/usr/lib/python3/dist-packages/service_pb2.py\", line 20, in <module>\n"
     "    create_key=_descriptor._internal_create_key,\nAttributeError: module "
     "'google.protobuf.descriptor' has no attribute '_internal_create_key'", "requirement-conflict"),
    # XGBoost's CPU build and faiss's CPU build asked for the GPU
    ("xgboost.core.XGBoostError: [10:12:01] ../src/gbm/gbtree.cc:548: Check failed: common::AllVisibleGPUs() "
     ">= 1 (0 vs. 1) : XGBoost version not compiled with GPU support.", "cpu-only-build"),
    ("    res = faiss.StandardGpuResources()\nAttributeError: 'module' object has no attribute "
     "'StandardGpuResources'", "cpu-only-build"),
    # a TensorFlow op library that does not load
    ("tensorflow.python.framework.errors_impl.NotFoundError: /usr/local/lib/python3.8/dist-packages/"
     "tensorflow_addons/custom_ops/image/_image_ops.so: cannot open shared object file", "extension-abi-mismatch"),
    ("NotFoundError when calling tfa.image.transform: _image_ops.so", "extension-abi-mismatch"),
    # an extension's op without a kernel under its own namespace
    ("NotImplementedError: There were no tensor arguments to this function (e.g., you passed an empty list "
     "of Tensors), but no fallback function is registered for schema mylib_ns::decode_frames.",
     "extension-abi-mismatch"),
    # PyOpenGL without GLUT, a binding's search for its C library, WeasyPrint's libraries
    ("    glutInit(sys.argv)\nOpenGL.error.NullFunctionError: Attempt to call an undefined function glutInit, "
     "check for bool(glutInit) before calling", "missing-shared-library"),
    ("    raise OSError(\"Could not find libspatialindex_c library file\")\nOSError: Could not find "
     "libspatialindex_c library file", "missing-shared-library"),
    ("ImportError: failed to find libmagic.  Check your installation", "missing-shared-library"),
    ("OSError: Could not find libomp.dylib; are you using the system clang? brew install libomp",
     "missing-shared-library"),
    ("OSError: cannot load library 'pango-1.0-0': error 0x7e.\nWeasyPrint could not import some external "
     "libraries. Please carefully follow the installation steps", "missing-shared-library"),
    # Mesa's loader: the driver file is not there, whatever its first line says
    ("libGL error: MESA-LOADER: failed to open iris: /usr/lib/dri/iris_dri.so\n"
     "libGL error: MESA-LOADER: failed to open iris: /usr/lib/dri/iris_dri.so: cannot open shared object file: "
     "No such file or directory", "missing-shared-library"),
    # a missing header in the user's locale
    ("src/ext.c:12:10: fatal error: GL/glew.h: 没有那个文件或目录\ncompilation terminated.", "extension-build-env"),
    ("src/ext.c:12:10: 致命错误：GL/glew.h：没有那个文件或目录\n编译中断。", "extension-build-env"),
    # onnxruntime's API gone after its two packages were swapped
    ("    sess = ort.InferenceSession(path, providers=providers)\nAttributeError: module 'onnxruntime' has no "
     "attribute 'InferenceSession'", "duplicate-install"),
    # onnxruntime's CUDA provider: another CUDA release installed
    ("CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN",
     "cuda-toolkit-mismatch"),
    # the user's words: a release without its wheel
    ("The macOS arm64 wheel is missing for 1.8.2, so pip tries to build it from source", "known-bad-release"),
    ("Missing tensorstore 0.1.60 aarch64 wheel", "known-bad-release"),
    # an Intel conda on Apple silicon
    ("Following the guide on my M2 Pro:\nPackagesNotFoundError: The following packages are not available "
     "from current channels:\n  - tensorflow-deps\nCurrent channels:\n  - https://conda.anaconda.org/apple/osx-64",
     "wrong-architecture"),
    # the user's words: only where Visual Studio is installed
    ("The DLL loads on my workstation but on machines without Visual Studio it fails with error 126",
     "missing-vc-runtime"),
    # model code from the Hub written for another transformers
    ("  File \"/root/.cache/huggingface/modules/transformers_modules/org/some-chat/abc123/modeling_chat.py\", "
     "line 310, in forward\n    cache_len = past_key_values[0][0].shape[2]\nAttributeError: 'str' object has no "
     "attribute 'shape'", "requirement-conflict"),
    ("TypeError: MyTokenizer._pad() got an unexpected keyword argument 'padding_side'", "requirement-conflict"),
    # uv's proof, wrapped over lines
    ("  x No solution found when resolving dependencies:\n  Because app depends on lib>=2 and lib>=2 depends on "
     "numpy<2, we can conclude that your\n      project's requirements are unsatisfiable.", "requirement-conflict"),
    # the user's words
    ("Installing the toolkit downgrades transformers: a dependency conflict between the two projects",
     "requirement-conflict"),
    # two OpenCV packages, said as a missing attribute
    ("    import cv2\nAttributeError: module 'cv2' has no attribute '_registerMatType'", "duplicate-install"),
    # torch's driver warning wrapped by a terminal
    ("UserWarning: CUDA initialization: The NVIDIA driver on your\nsystem is too old (found version 11040).",
     "driver-too-old"),
    # a standard-library module removed in the Python that runs the code
    ("The 'imp' module is removed in Python 3.12, so the plugin loader crashes on start", "unsupported-python"),
    # TFLite meets an operator of a newer converter
    ("java.lang.IllegalArgumentException: Internal error: Cannot create interpreter: Op builtin_code out of "
     "range: 150. Are you using old TFLite binary with newer model?", "companion-mismatch"),
    # a spaCy pipeline for another spaCy release
    ("UserWarning: [W095] Model 'en_core_web_sm' (3.4.1) was trained with spaCy v3.4 and may not be 100% "
     "compatible with the current version (3.7.2).", "companion-mismatch"),
    # nvcc older than the GPU, quoted in a title
    ("Unsupported gpu architecture 'compute_90' when building the extension", "cuda-toolkit-mismatch"),
    # a release named before its missing wheels
    ("2.4.0 missing wheels for macOS arm64 on PyPI", "known-bad-release"),
    # a PJRT plugin for another jaxlib
    ("RuntimeError: Unable to initialize backend 'METAL': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API "
     "version (0.47) and framework PJRT API version 0.54)", "extension-abi-mismatch"),
    # Visual Studio said absent in the other word order
    ("Our plugin loads fine here, but on machines without Visual C++ installed it fails with error 126",
     "missing-vc-runtime"),
    # Poetry finds no file of the locked release for this interpreter
    ("  - Installing onnxruntime (1.12.1): Failed\n\n  RuntimeError\n\n  Unable to find installation candidates "
     "for onnxruntime (1.12.1)", "unsupported-python"),
    # round 21, third part (written on generation 16's used-up held-out cases)
    # Polars' own CPU check
    ("RuntimeWarning: Missing required CPU features.\nThe following required CPU features were not detected:\n"
     "    avx, avx2, fma\nInstall the `polars-lts-cpu` package instead", "cpu-instructions-unsupported"),
    # zsh's SIGILL on a PC, and on an Apple-silicon Mac
    ("$ python bench.py\nzsh: illegal hardware instruction  python bench.py\n(Ubuntu 22.04, Core i5-3570)",
     "cpu-instructions-unsupported"),
    ("On my MacBook with an M2 chip:\n>>> import tensorflow\nzsh: illegal hardware instruction  python3",
     "wrong-architecture"),
    # Open3D's ML ops for another framework release
    ("Exception: Version mismatch: Open3D needs PyTorch version 1.8.*, but version 2.0.1 is installed!",
     "extension-abi-mismatch"),
    # the module named missing in the user's words
    ("When running the script I get that the _lzma module is missing (pyenv Python 3.10)", "missing-shared-library"),
    # ComfyUI's hint about the driver
    ("If you see this and ComfyUI did not start try updating your Nvidia Drivers to the latest version.\n"
     "RuntimeError: CUDA error: no CUDA-capable device is detected", "driver-too-old"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a user's module, a package's submodule, and names that only start like the C modules
    ("ModuleNotFoundError: No module named 'bz2file'", "missing-shared-library"),
    ("ModuleNotFoundError: No module named '_ctypes_helpers'", "missing-shared-library"),
    ("ModuleNotFoundError: No module named 'bz2.compat'", "missing-shared-library"),
    # a source-only package that failed to build: a build environment, not a Python version
    ("  Building wheel for dlib (setup.py) ... error\nERROR: Failed building wheel for dlib", "unsupported-python"),
    ("ERROR: Failed building wheel for numpy-financial-helpers", "unsupported-python"),
    # a file cut short is corrupt, not foreign
    ("OSError: /opt/conda/lib/libcudnn.so.8: file too short", "wrong-architecture"),
    # Docker on the right platform
    ("Status: Downloaded newer image for pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime (linux/arm64)",
     "wrong-architecture"),
    # torch's own operators are not an extension's
    ("NotImplementedError: no fallback function is registered for schema aten::_foo_bar", "extension-abi-mismatch"),
    # CMake's search for a library is a build's, not a binding's
    ("-- Could NOT find LibXml2 (missing: LIBXML2_LIBRARY LIBXML2_INCLUDE_DIR)", "missing-shared-library"),
    # a wheel named as present, and a release named without a missing wheel
    ("Support for FlashAttention is missing from the 2.1 release", "known-bad-release"),
    ("The cp312 wheel is missing for 3.12, pip builds from source", "known-bad-release"),
    ("Nothing is missing from the 2.1 release notes", "known-bad-release"),
    # an arm64 conda that finds its packages
    ("M1 Max, Miniforge: Solving environment: done\n  - https://conda.anaconda.org/conda-forge/osx-arm64",
     "wrong-architecture"),
    # a build without Visual Studio is a build environment's, not a runtime's
    ("error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\"",
     "missing-vc-runtime"),
    # a user's own script that fails is not the Hub's model code
    ("  File \"/home/u/train.py\", line 3, in <module>\nAttributeError: 'str' object has no attribute 'shape'",
     "requirement-conflict"),
    # a module removed from a package (not Python), and Python named as present
    ("numpy.float was removed in NumPy 1.24; the code still uses it", "unsupported-python"),
    # a spaCy warning code named, no pipeline
    ("[W031] is the warning spaCy prints for a pipeline of another release", "companion-mismatch"),
    # a download that failed is no build from source
    ("error: Failed to fetch wheel: torch==2.2.0+cu121\n  Caused by: Failed to fetch: "
     "`https://download.pytorch.org/whl/cu121/torch-2.2.0-cp311-cp311-linux_x86_64.whl`\n"
     "  Caused by: operation timed out", "unsupported-python"),
    ("  - Installing numpy (1.26.4): Failed\n\n  ConnectionError\n\n  "
     "HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.", "unsupported-python"),
    # an arm64 channel beside an osx-64 one, and a Mac that says it is no M1
    ("https://conda.anaconda.org/conda-forge/osx-arm64/numpy-1.26.4.conda\n"
     "https://conda.anaconda.org/conda-forge/osx-64/numpy-1.26.4.conda", "wrong-architecture"),
    ("MacBook Pro 2019 (Intel i7, not an M1)\nPackagesNotFoundError: The following packages are not available from "
     "current channels:\n  - https://repo.anaconda.com/pkgs/main/osx-64", "wrong-architecture"),
    # a CUDA installer's note about Visual Studio, before a build that finds no compiler
    ("CUDA installer: if Visual Studio is not installed, the Visual Studio Integration component is skipped\n"
     "nvcc fatal : Cannot find compiler 'cl.exe' in PATH", "missing-vc-runtime"),
    # a directory, a build's search, a fallback that works
    ("Could not find library directory /usr/local/cuda/lib64 -- continuing", "missing-shared-library"),
    ("-- Could not find libtorch, set Torch_DIR", "missing-shared-library"),
    ("Failed to find libdevice.10.bc in the CUDA path; using the bundled copy", "missing-shared-library"),
    # torch's own quantized operators
    ("no fallback function is registered for schema quantized::linear_prepack", "extension-abi-mismatch"),
    # a NotFoundError about a file whose name only contains _ops.so
    ("NotFoundError: /data/my_ops.so.tfrecord missing", "extension-abi-mismatch"),
    ("NotFoundError: libcudnn_ops.so.9: cannot open shared object file", "extension-abi-mismatch"),
    # Polars' check that found every feature
    ("polars: all required CPU features were detected", "cpu-instructions-unsupported"),
    # Python's own future removals, and a removal denied
    ("DeprecationWarning: ast.Num is deprecated and will be removed in Python 3.14; use ast.Constant instead",
     "unsupported-python"),
    ("The imp module was not removed in Python 3.11, so that is not the problem", "unsupported-python"),
    # a Python version is no release missing its wheels
    ("Python 3.12 missing wheels, so pip builds numpy from source and fails", "known-bad-release"),
    ("The wheel is missing for 3.12.1, pip builds from source", "known-bad-release"),
    # a namespace package whose part is not installed
    ("ModuleNotFoundError: No module named 'google.protobuf'", "requirement-conflict"),
    # an Intel Mac said as such
    ("Intel MacBook Pro, not on an M1\nzsh: illegal hardware instruction  python", "wrong-architecture"),
    ("Intel MacBook (non-M1), Miniconda\nPackagesNotFoundError: The following packages are not available from "
     "current channels:\n  - https://repo.anaconda.com/pkgs/main/osx-64", "wrong-architecture"),
    # a TensorFlow NotFoundError about data, not an op library
    ("tensorflow.python.framework.errors_impl.NotFoundError: /data/train.tfrecord; No such file or directory",
     "extension-abi-mismatch"),
]

# words of success: no answer
HEALTHY = [
    "Successfully built tokenizers\nInstalling collected packages: tokenizers\n"
    "Successfully installed tokenizers-0.13.3",
    "Building wheel for numpy (pyproject.toml) ... done",
    "Resolved 132 packages in 1.2s, no dependency conflicts found",
    "All installed packages are compatible, no version conflicts",
    "Found 0 dependency conflicts",
]


def test_a_wheel_package_built_from_source_keeps_the_build_environment_as_a_second_reading() -> None:
    """A Rust package built from source points at the Python first, and still names the missing
    compiler's reading (a build environment) below it: a user on a supported Python may lack a
    wheel for another reason."""
    text = "  error: can't find Rust compiler\n  ERROR: Failed building wheel for tiktoken"
    slugs = [c.slug for c in diagnose_text(text).shown]
    assert slugs[0] == "unsupported-python"
    assert "extension-build-env" in slugs


def test_an_invalid_elf_header_is_read_as_a_foreign_file_before_a_corrupt_one() -> None:
    slugs = [c.slug for c in diagnose_text("ImportError: /app/lib/_imaging.so: invalid ELF header").shown]
    assert slugs[:2] == ["wrong-architecture", "corrupt-install"]


def test_torch_xla_built_for_another_torch_is_read_as_a_companion_too() -> None:
    """torch_xla's _XLAC missing a torch symbol: the companion reading joins the extension reading
    (they stay close: 7 of 22 corpus texts of a torch satellite's undefined symbol were labelled
    as an extension built for another torch)."""
    text = ("ImportError: /usr/local/lib/python3.10/dist-packages/_XLAC.cpython-310-x86_64-linux-gnu.so: "
            "undefined symbol: _ZN2at4_ops10fill_Scalar4callERKNS_6TensorERKN3c106ScalarE")
    slugs = [c.slug for c in diagnose_text(text).shown]
    assert "companion-mismatch" in slugs[:2]


def test_a_submodule_missing_from_an_installed_package_is_a_version_lead() -> None:
    """The package imported, so it is installed; a release without the submodule is the lead,
    both version readings above the fallback's "not installed here" reading."""
    text = "    from cupy.cuda.cublas import sgemm\nModuleNotFoundError: No module named 'cupy.cuda.cublas'"
    slugs = [c.slug for c in diagnose_text(text).shown]
    assert slugs[:2] == ["requirement-conflict", "companion-mismatch"]
    # a private submodule of a framework stays a broken or shadowed install
    text = "ModuleNotFoundError: No module named 'torch._C'"
    assert "requirement-conflict" not in [c.slug for c in diagnose_text(text).shown]
