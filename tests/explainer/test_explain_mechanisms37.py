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
]

HEALTHY: list[str] = []


def test_the_torch_mps_entry_needs_its_mark() -> None:
    """torch 2.0.0 on macOS with an unrelated failure is no torch.mps regression."""
    report = diagnose_text("PyTorch version: 2.0.0\nOS: macOS 13.3 (arm64)\nRuntimeError: MPS backend out of memory",
                           words=False)
    assert all(c.slug != "known-bad-release" for c in report.shown[:1])
