"""Mechanism-level rules, forty-eighth round (issue 14, item 2): 48a written on generation 37's
train reports before its held-out ones were measured, 48b on the held-out misses after; each
with a text of our own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

#: the round's rules, not word evidence, put each case's cause first
#: (test_explain_mechanism_rounds.py checks it with words=False)
RULES_ALONE = True

# (text, the cause the mechanism implies first)
CASES = [
    # torch's dispatcher: an aten operator with no CUDA kernel is a CPU-only torch
    ("NotImplementedError: Could not run 'aten::empty.memory_format' with arguments from the 'CUDA' "
     "backend. This could be because the operator doesn't exist for this backend", "cpu-only-build"),
    # a companion's operator without the backend's kernel: torchvision built without CUDA
    ("NotImplementedError: Could not run 'torchvision::roi_align' with arguments from the 'CUDA' backend.",
     "companion-mismatch"),
    # another library's operator never registered: built for another torch
    ("NotImplementedError: Could not run 'mylib_ops::fused_decode' with arguments from the 'CPU' backend.",
     "extension-abi-mismatch"),
    # an extension's DLL failure with its reason cut off
    ("    from fused_attn import fused_attn_cuda\nImportError: DLL load failed while importing fused_attn_cuda",
     "extension-abi-mismatch"),
    # ggml's CUDA build without this GPU's architecture
    ("ggml_cuda_init: found 1 CUDA devices\nERROR: ggml-cuda was compiled without support for the current "
     "GPU architecture.", "gpu-arch-unsupported"),
    # libmamba's strict channel priority
    ("warning  libmamba Problem type not implemented SOLVER_RULE_STRICT_REPO_PRIORITY\nfailed",
     "conda-solver-conflict"),
    # conda on an aarch64 Linux: the channel's subdir has no such package
    ("PackagesNotFoundError: The following packages are not available from current channels:\n\n  - faiss-gpu\n\n"
     "Current channels:\n\n  - https://conda.anaconda.org/conda-forge/linux-aarch64\n"
     "  - https://conda.anaconda.org/conda-forge/noarch", "wrong-architecture"),
    # conda's plan swapping the CUDA build for a CPU one
    ("The following packages will be SUPERSEDED by a higher-priority channel:\n\n"
     "  pytorch    pytorch::pytorch-2.0.1-py3.10_cuda11.8_cudnn8.7.0_0 --> "
     "pkgs/main::pytorch-2.0.1-cpu_py310hab5cca8_0",
     "cpu-only-build"),
    # TensorFlow's CPU build in conda is named mkl_py (review)
    ("  tensorflow    pkgs/main::tensorflow-2.4.1-gpu_py38h8a7d6ce_0 --> "
     "pkgs/main::tensorflow-2.3.0-mkl_py38h0481017_0",
     "cpu-only-build"),
    # a notebook running the base interpreter
    ("Jupyter Notebook on Windows uses the default conda root instead of my environment:\n"
     "import sys; print(sys.executable)\nC:\\Users\\me\\Anaconda3\\python.exe", "interpreter-mismatch"),
    # an older release that still works
    ("After upgrading the app crashes on start with Segmentation fault; the older version 2.3.1 still works.",
     "known-bad-release"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # a quantized or sparse backend of aten is the code's, not the install's
    ("NotImplementedError: Could not run 'aten::quantize_per_tensor' with arguments from the 'QuantizedCPU' backend.",
     "cpu-only-build"),
    # a conda plan that moves something else, and an arrow in another log
    ("  numpy    1.26.4-py310h5f9d8c6_0 --> 1.24.3-py310h5f9d8c6_0\n  pytorch-cuda 11.8 --> 12.1", "cpu-only-build"),
    # a question about the older release is no report that it works
    ("Does the older version 1.4.0 still work with CUDA 12?", "known-bad-release"),
    # the older release fails too (review)
    ("I also tried: the previous version 2.0.1 runs into the same error, so it is probably my code.",
     "known-bad-release"),
    # the user's quantized model on the GPU, a custom op without a Meta kernel (review)
    ("NotImplementedError: Could not run 'aten::quantize_per_tensor' with arguments from the 'CUDA' backend.",
     "cpu-only-build"),
    ("NotImplementedError: Could not run 'mylib::mysin' with arguments from the 'Meta' backend. "
     "'mylib::mysin' is only available for these backends: [CPU, CUDA, BackendSelect, Python].",
     "extension-abi-mismatch"),
    ("NotImplementedError: Could not run 'torchvision::roi_align' with arguments from the 'QuantizedCUDA' backend.",
     "companion-mismatch"),
    # a laptop, a CUDA kernel, the Linux kernel (review)
    ("My notebook uses the default Intel GPU instead of the NVIDIA GeForce MX150, so training is slow.",
     "interpreter-mismatch"),
    ("After upgrading Ubuntu the kernel uses the default nouveau driver instead of the nvidia module, "
     "nvidia-smi says: NVIDIA-SMI has failed", "interpreter-mismatch"),
    # an arrow in a training log is no conda plan (review)
    ("Epoch 3: moving tensorflow model from GPU --> CPU_0 for evaluation; cpu_count=16 failed",
     "cpu-only-build"),
    # libmamba's warning in a solve that then succeeded (review)
    ("warning  libmamba Problem type not implemented SOLVER_RULE_STRICT_REPO_PRIORITY\n"
     "Solving environment: done\nExecuting transaction: done\n"
     "ImportError: /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: "
     "undefined symbol: iJIT_NotifyEvent",
     "conda-solver-conflict"),
]

HEALTHY: list[str] = [
    "Solving environment: done\n\n## Package Plan ##\n"
    "  pytorch  2.1.0-py3.10_cuda12.1_cudnn8.9.2_0 --> 2.1.1-py3.10_cuda12.1_cudnn8.9.2_0",
    "Both run here: the new 2.4.0 and the previous version 2.3.1 are installed side by side.",
]

