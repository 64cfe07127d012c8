"""Mechanism-level rules, twenty-fourth round (issue 14, item 2): written on generation 19's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

from .ranked import shown_slugs

# (text, the cause the mechanism implies first)
CASES = [
    # a companion package (standalone Keras, a torch satellite) importing a name its framework's
    # installed release lacks: the pair does not fit, one mechanism, not two
    ('  File "/usr/lib/python3.8/site-packages/keras/backend.py", line 36, in <module>\n'
     "    from tensorflow.python.eager.context import get_config\n"
     "ImportError: cannot import name 'get_config' from 'tensorflow.python.eager.context' "
     "(/usr/lib/python3.8/site-packages/tensorflow/python/eager/context.py)", "companion-mismatch"),
    ("ImportError: cannot import name 'SAVE_STATE_WARNING' from 'torch.optim.lr_scheduler' "
     "(C:\\venv\\lib\\site-packages\\torch\\optim\\lr_scheduler.py)", "companion-mismatch"),
    # a Windows program (no Python import) that will not start for a DLL it cannot find
    ("启动EXE时提示找不到指定的模块", "missing-vc-runtime"),
    ("When I try to run `rundll32 Hook.dll,Inject`:\nThere was a problem starting Hook.dll\n"
     "The specified module could not be found.", "missing-vc-runtime"),
    ("Launching MyTool.exe shows a dialog:\n指定されたモジュールが見つかりません。", "missing-vc-runtime"),
    # SIGILL on an Intel Mac (a macOS release older than Apple Silicon)
    ("Illegal instruction: 4 when importing the wheel on macOS Sierra (10.12.5)", "cpu-instructions-unsupported"),
    ("OS: Mac OS X 10.13.6\n$ python -c 'import tensorflow'\nIllegal instruction: 4", "cpu-instructions-unsupported"),
    # an extension nvcc 10+ compiled, loaded with an older CUDA runtime
    ("ImportError: /home/me/proj/emd_cuda.cpython-37m-x86_64-linux-gnu.so: undefined symbol: "
     "__cudaPopCallConfiguration", "cuda-toolkit-mismatch"),
    ("OSError: /venv/lib/python3.8/site-packages/chamfer/_C.so: undefined symbol: __cudaPushCallConfiguration",
     "cuda-toolkit-mismatch"),
    # pip's legacy install of a package that publishes wheels: none fits this interpreter
    ("error: legacy-install-failure\n\n× Encountered error while trying to install package.\n╰─> sentencepiece\n\n"
     "Run on MacBook m1, Python 3.11", "unsupported-python"),
    # the user's words put the failure on one Python release
    ("Build Wheel Error on Python 3.12\n\nKeep getting error for py3.12 when trying to pip install eval7",
     "unsupported-python"),
    ("I did not find pyrealsense2 for python 3.12 or above, how do I install it?", "unsupported-python"),
    # pip says the package is there, the program cannot import it: two interpreters
    ("ModuleNotFoundError: No module named 'omegaconf'\n\nI ran pip install omegaconf and it said it was "
     "already installed!!!", "interpreter-mismatch"),
    ("$ pip install insightface\nRequirement already satisfied: insightface in c:\\python310\\lib\\site-packages "
     "(0.7.3)\n...\nModuleNotFoundError: No module named 'insightface'", "interpreter-mismatch"),
    # a C++ header with no extension, not installed
    ("torchsparse/backend/hashmap/hashmap_cpu.hpp:7:10: fatal error: google/dense_hash_map: No such file or "
     "directory\n compilation terminated.", "extension-build-env"),
    # Cython 3.0 broke a build written for 0.29
    ("Can't build with current Cython\n\nOur installations started failing with the release of Cython 3.0.0",
     "extension-build-env"),
    ("pip install fail on cython3.0", "extension-build-env"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a name missing from a package that is no framework stays the requirement's
    ("ImportError: cannot import name 'cached_download' from 'huggingface_hub' "
     "(/venv/lib/python3.10/site-packages/huggingface_hub/__init__.py)", "companion-mismatch"),
    # a Python import's DLL failure is its own signatures'
    ("When I run main.py:\nImportError: DLL load failed while importing _ext: The specified module could not be found.",
     "dll-version-conflict"),
    # a file the program cannot find is no module
    ("Launching tool.exe: The system cannot find the file specified.", "missing-vc-runtime"),
    # SIGILL on an Apple Silicon Mac stays the architecture's
    ("MacBook Pro M1, macOS 14.2\n$ python app.py\nIllegal instruction: 4", "cpu-instructions-unsupported"),
    # another undefined symbol of CUDA's is no launch API
    ("ImportError: libtorch_cuda.so: undefined symbol: cudaGraphInstantiateWithFlags, version libcudart.so.11.0",
     "cuda-toolkit-mismatch"),
    # another mmcv symbol is no release of its own
    ("ImportError: /opt/venv/lib/python3.8/site-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN2at4_ops19empty_memory_format4callEN3c108ArrayRefIlEENS2_8optionalINS2_10ScalarTypeEEE",
     "known-bad-release"),
    # a package that is no binary-wheel package, and a wheel that was built
    ("× Encountered error while trying to install package.\n╰─> mylocalpkg", "unsupported-python"),
    ("Created wheel for foo: filename=foo-1.0-cp312-cp312-linux_x86_64.whl, a wheel for Python 3.12",
     "unsupported-python"),
    # "already installed" of something that then imports
    ("pip said it was already installed; training then stopped with CUDA out of memory",
     "interpreter-mismatch"),
    # a source file, not a header
    ("gcc: fatal error: src/ops/nms.cpp: No such file or directory", "extension-build-env"),
    # Cython 3 named without a failure
    ("Cython 3.0 is much faster for our extension, we moved to it", "extension-build-env"),
    # the fresh-eyes review's look-alikes: Apple Silicon beside an old macOS, a user called catalina
    ("My old Mac (Mojave) ran it; on the new MacBook M1 under Rosetta:\nIllegal instruction: 4",
     "cpu-instructions-unsupported"),
    ("/Users/catalina/venv/bin/python app.py\nIllegal instruction: 4", "cpu-instructions-unsupported"),
    # a linker's undefined launch symbol (no -lcudart) is a build's
    ("ld.lld: error: undefined symbol: __cudaPushCallConfiguration\n>>> referenced by kernel.cu",
     "cuda-toolkit-mismatch"),
]

# words of success: no answer
HEALTHY = [
    "MyTool.exe started fine after I installed the redistributable.",
    "macOS Sierra 10.12, tensorflow 1.2 runs fine",
    "Successfully built wheel for Python 3.12 and installed it",
    "Requirement already satisfied: numpy in ./venv/lib/python3.11/site-packages (1.26.4)",
    "Compiling with Cython 3.0.10 ... done",
]


def test_mmcv_full_1_3_18_is_named_by_the_symbol_its_ops_lack() -> None:
    """The release table's mmcv-full entry (open-mmlab/mmcv#1556): the release and its mark name
    the regression; a compiled-ops failure with a full path stays a close call with the ABI
    mismatch it looks like, so the release is asserted among the first two, not first."""
    text = ("mmcv-full 1.3.18\nImportError: /opt/venv/lib/python3.7/site-packages/mmcv/"
            "_ext.cpython-37m-x86_64-linux-gnu.so: undefined symbol: _Z27points_in_boxes_cpu_forwardN2at6TensorES0_S0_")
    assert "known-bad-release" in shown_slugs(text, words=False)[:2]
    other = text.replace("points_in_boxes", "roi_align").replace("1.3.18", "1.7.0")
    assert "known-bad-release" not in shown_slugs(other, words=False)
    # mmcv 2.x is the same package renamed: another release named is no 1.3.18
    assert "known-bad-release" not in shown_slugs(text.replace("mmcv-full 1.3.18", "mmcv 2.1.0"), words=False)


def test_an_error_126_box_is_no_program_that_will_not_start() -> None:
    """A driver's "LoadLibrary failed with error 126" box when a game starts (switchable
    graphics) carries the same words; the code before them makes it another message's."""
    text = "When I start the game:\nLoadLibrary failed with error 126: The specified module could not be found."
    hits = {h.signature for c in diagnose_text(text, words=False).shown for h in c.hits}
    assert "program-start-module-not-found" not in hits
    assert "program-start-module-not-found" in {
        h.signature for c in diagnose_text(text.replace("LoadLibrary failed with error 126: ", ""), words=False).shown
        for h in c.hits}
