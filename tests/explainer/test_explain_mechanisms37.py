"""Mechanism-level rules, thirty-seventh round (issue 14, item 2): written on generation 29's
held-out cases after their one measurement; each with a text of our own writing (not a corpus
case) and a look-alike it must not claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # the kernels were never built: the user's words about CUDA_HOME beside the kernel warning
    ("Installing from source gives a 'CUDA_HOME' environment issue.\nCUDA extension not installed.",
     "extension-build-env"),
    # a project's own compiled module missing after the user built it from source
    ("git clone https://github.com/acme/fastlayer\ncd fastlayer\npip install .\n"
     "ModuleNotFoundError: No module named 'fastlayer_C'", "extension-build-env"),
    # the linker's words quoted without its "ld:" prefix
    ("[BUG] cannot find -lcurand and -lcudart when building cpu_adam", "extension-build-env"),
    # no CUDA runtime beside a toolkit the user installed: a CPU torch
    ("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda-12.1'\nrunning build_ext", "cpu-only-build"),
    ("No CUDA runtime is found, using CUDA_HOME='C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1'",
     "cpu-only-build"),
    # the pair's own check, either way round
    ("Torch version 2.1.0+cu121 is not compatible with torchvision 0.15.2+cu118", "companion-mismatch"),
    ("torchaudio 2.0.2 is not compatible with torch 2.1.0", "companion-mismatch"),
    # a companion's own library without a torch symbol it was built against
    ("OSError: /venv/lib/python3.10/site-packages/torchaudio/_torchaudio.so: undefined symbol: "
     "_ZNK2at6Tensor6deviceEv", "companion-mismatch"),
    # an installer replaced the GPU build of TensorFlow
    ("pip install facelib: it is uninstalling my tensorflow-gpu and installing tensorflow", "wrong-index-variant"),
    # OpenCV's DNN check of the cuDNN it runs against
    ("[ WARN:0] checkVersions cuDNN reports version 8902 which does not match with the version 8600 with "
     "which OpenCV was built", "cuda-toolkit-mismatch"),
    # Theano's pooling API under an older Lasagne or Keras
    ("TypeError: max_pool_2d() got an unexpected keyword argument 'mode'", "companion-mismatch"),
    ("    from theano.tensor.signal import downsample\nImportError: cannot import name downsample",
     "companion-mismatch"),
    # two releases in the table: torch 2.0.0's torch.mps, blis 0.9.0 on Windows
    ("PyTorch version: 2.0.0\nOS: macOS 13.3 (arm64)\nAttributeError: module 'torch' has no attribute 'mps'",
     "known-bad-release"),
    ("Exception code: 0xc0000005\nFaulting module path: C:\\app\\lib\\blis\\cy.cp310-win_amd64.pyd",
     "known-bad-release"),
    # (after the fresh-eyes review) more wordings: DeepSpeed's CUDA_HOME, flags and backticks around
    # `pip install .`, a title's linker words, a toolkit under /apps, the pair in other words, torchaudio
    # 2.x's lib/ folder, OpenCV's newer check, Lasagne's newer pool_2d, torch 2.0.1's mps, blis 0.9.1
    ("CUDA_HOME does not exist, unable to compile CUDA op(s)", "extension-build-env"),
    ("pip install --no-build-isolation -e .\n...\nModuleNotFoundError: No module named 'selective_scan_cuda'",
     "extension-build-env"),
    ("I ran `pip install .` and then: ModuleNotFoundError: No module named 'amp_C'", "extension-build-env"),
    ("I compiled it from source.\nImportError: No module named fused_adam_cuda", "extension-build-env"),
    ("No CUDA runtime is found, using CUDA_HOME='/apps/cuda/11.8.0'", "cpu-only-build"),
    ("torchvision==0.15.2 is incompatible with torch==2.1.0", "companion-mismatch"),
    ("The installed torchvision (0.15.2) is not compatible with torch (2.1.0)", "companion-mismatch"),
    ("torch 2.1.0 and torchvision 0.15.2 are not compatible", "companion-mismatch"),
    ("OSError: /venv/lib/python3.10/site-packages/torchaudio/lib/_torchaudio.so: undefined symbol: "
     "_ZN3c1017RegisterOperatorsD1Ev", "companion-mismatch"),
    ("cuDNN reports version 8.9 which is not compatible with the version 8.6 with which OpenCV was built",
     "cuda-toolkit-mismatch"),
    ("TypeError: pool_2d() got an unexpected keyword argument 'ws'", "companion-mismatch"),
    ("PyTorch version: 2.0.1\nOS: macOS 13.4 (arm64)\nAttributeError: module 'torch' has no attribute 'mps'",
     "known-bad-release"),
    ("blis==0.9.1\nException code: 0xc0000005\nFaulting module path: C:\\x\\blis\\cy.cp310-win_amd64.pyd",
     "known-bad-release"),
    # (after generation 29 joined train) a Jetson container started without the NVIDIA runtime: the
    # host's libraries were never mounted over the image's placeholders; pybind11's Python check
    ("docker run -it dustynv/jetson-inference:r32.4.4\n./segnet: error while loading shared libraries: "
     "/usr/lib/aarch64-linux-gnu/libnvinfer.so.7: file too short", "gpu-build-without-gpu"),
    ("ImportError: Python version mismatch: module was compiled for Python 3.8, but the interpreter version is "
     "incompatible: 3.10.12", "interpreter-mismatch"),
]

# (a look-alike, the cause it must not put first)
NOT_CLAIMED = [
    # CUDA_HOME denied as the trouble, and set
    ("There is no CUDA_HOME problem here: RuntimeError: CUDA out of memory", "extension-build-env"),
    # a module of the user's, not a compiled one, after a clone
    ("git clone https://github.com/acme/fastlayer\nModuleNotFoundError: No module named 'fastlayer_config'",
     "extension-build-env"),
    # the bare toolkit path of an image or Colab: no sign the user set CUDA up
    ("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'", "cpu-only-build"),
    # compatible, said so
    ("torch 2.1.0 is compatible with torchvision 0.16.0, I checked the table", "companion-mismatch"),
    # torchvision's _C.so: the train labels say a build against another torch
    ("ImportError: /env/lib/python3.6/site-packages/torchvision/_C.cpython-36m-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c1019UndefinedTensorImpl10_singletonE", "companion-mismatch"),
    # the user's own swap, on purpose
    ("I uninstalled tensorflow-gpu and installed tensorflow because this laptop has no GPU", "wrong-index-variant"),
    # another library's downsample
    ("ImportError: cannot import name 'downsample_2d' from 'diffusers.models.resnet'", "companion-mismatch"),
    # (after the fresh-eyes review) CUDA_HOME denied, fixed, unneeded
    ("CUDA_HOME is not set, but that's fine: I only use the CPU. RuntimeError: CUDA out of memory",
     "extension-build-env"),
    ("This isn't a CUDA_HOME issue, CUDA_HOME points to /usr/local/cuda-12.1. RuntimeError: an illegal memory "
     "access was encountered", "extension-build-env"),
    ("Setting CUDA_HOME fixed the CUDA_HOME error, now I get: RuntimeError: CUDA out of memory",
     "extension-build-env"),
    # a clone is no build; a PyPI package whose name ends in _kernel; a build only wondered about
    ("git clone https://github.com/x/y\ncd y\npip install -r requirements.txt\npython train.py\n"
     "ModuleNotFoundError: No module named 'liger_kernel'", "extension-build-env"),
    ("ModuleNotFoundError: No module named 'amp_C'\nI installed apex with `pip install apex` from PyPI. Should I "
     "git clone NVIDIA's repo instead?", "extension-build-env"),
    # a CUDA build shown beside no runtime: the driver, not the CPU build
    ("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda-12.1'\n>>> torch.__version__\n'2.1.2+cu121'\n"
     ">>> torch.cuda.is_available()\nFalse", "cpu-only-build"),
    # a question; TensorFlow 2.1+ and its [and-cuda] extra carry the GPU support
    ("Should pip uninstall tensorflow-gpu and install tensorflow? My error: ImportError: libcudnn.so.8: cannot "
     "open shared object file", "wrong-index-variant"),
    ("Installing keras-cv, pip replaced tensorflow-gpu with tensorflow 2.15 and the GPU still works",
     "wrong-index-variant"),
    # a patch level's difference
    ("cuDNN reports version 8201 which does not match with the version 8200 with which OpenCV was built",
     "cuda-toolkit-mismatch"),
    # a downsample of the user's own models
    ("ImportError: cannot import name 'downsample' from 'models.common' (/home/u/yolov5/models/common.py)",
     "companion-mismatch"),
    # torch.backends.mps missing: a torch before 1.12, no 2.0.0 regression
    ("AttributeError: module 'torch.backends' has no attribute 'mps'", "known-bad-release"),
    # blis built from source, or its DLL not loading: no crash of 0.9.x
    ("copying blis\\cy.pyx -> build\\lib.win-amd64-cpython-313\\blis\nFailed building wheel for blis",
     "known-bad-release"),
    ("ImportError: DLL load failed while importing cy: blis\\cy.cp311-win_amd64.pyd", "known-bad-release"),
    # a library of the user's own folder cut short: a damaged copy, not the container runtime
    ("OSError: /home/u/venv/lib/python3.8/site-packages/torch/lib/libtorch_cpu.so: file too short",
     "gpu-build-without-gpu"),
]

HEALTHY: list[str] = []


def test_the_torch_mps_entry_needs_its_mark() -> None:
    """torch 2.0.0 on macOS with an unrelated failure is no torch.mps regression."""
    report = diagnose_text("PyTorch version: 2.0.0\nOS: macOS 13.3 (arm64)\nRuntimeError: MPS backend out of memory",
                           words=False)
    assert all(c.slug != "known-bad-release" for c in report.shown[:1])


def test_the_linker_words_as_advice_are_no_linker_error() -> None:
    """"If you ever see 'cannot find -lcuda'" mid-sentence is advice: only a line's (a title's) start
    or ld's own prefix counts for the linker's words."""
    report = diagnose_text("The README says to symlink libcuda.so if you ever see 'cannot find -lcuda'; I did that "
                           "already. My error now: torch.cuda.OutOfMemoryError: CUDA out of memory", words=False)
    assert all(not h.signature.startswith("ld-cannot-find") for c in report.shown for h in c.hits)
