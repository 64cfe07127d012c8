"""Mechanism-level rules, forty-seventh round (issue 14, item 2): 47a written on generation 36's
train reports before its held-out ones were measured, 47b on the held-out misses after; each
with a text of our own writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

#: the round's rules, not word evidence, put each case's cause first
#: (test_explain_mechanism_rounds.py checks it with words=False)
RULES_ALONE = True

# (text, the cause the mechanism implies first)
CASES = [
    # a game's plugin loader: Windows's ERROR_MOD_NOT_FOUND after a colon
    ("The launcher shows: Unable to load widescreenfix.asi. Error: 126", "missing-shared-library"),
    # .NET's DllNotFoundException retold without the DLL's name
    ("Unable to load DLL ... The specified module could not be found. (Exception from HRESULT)",
     "missing-shared-library"),
    # a program (no library) needing a symbol of its own library's newer release
    ("$ mytool --version\nmytool: symbol lookup error: mytool: undefined symbol: mylib_init_v2",
     "dll-version-conflict"),
    # uv does not read the index that holds the pinned variant
    ("  × No solution found when resolving dependencies:\n  ╰─▶ Because there is no version of "
     "torchvision==0.19.0+cu121 and your project depends on torchvision==0.19.0+cu121, we can conclude "
     "that your project's requirements are unsatisfiable.", "wrong-index-variant"),
    # the user's words: a ROCm build came instead of the CUDA one
    ("After pip install torch, pip installed the rocm build instead of the cuda build on my RTX 4090.",
     "wrong-index-variant"),
    # a compute capability below the build's minimum
    ("My GTX 1080 has compute capability 6.1 but this build requires a minimum of 7.5.",
     "gpu-arch-unsupported"),
    # the program's line wrapped before its symbol (review)
    ("./bin/rigctld: symbol lookup error: ./bin/rigctld:\n undefined symbol: rig_set_debug_time_stamp",
     "dll-version-conflict"),
    # uv's forked resolution names the variant with its marker (review)
    ("  ╰─▶ Because there is no version of torch{platform_system == 'Windows'}==2.1.2+cu121 and your "
     "project depends on torch{platform_system == 'Windows'}==2.1.2+cu121, we can conclude that your "
     "project's requirements are unsatisfiable.", "wrong-index-variant"),
    # .NET's ERROR_BAD_FORMAT: a DLL of the other bitness (review)
    ("System.DllNotFoundException? No: Unable to load DLL 'libtensorflow': An attempt was made to load a "
     "program with an incorrect format. (Exception from HRESULT: 0x8007000B)", "wrong-architecture"),
]

# (look-alike text, the cause it must not be given first)
NOT_CLAIMED = [
    # a library, not the program, lacks the symbol: another mechanism's words
    ("python: symbol lookup error: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_python.so: "
     "undefined symbol: _ZN3c10", "dll-version-conflict"),
    # a minimum driver version beside a compute capability is a driver requirement
    ("GPU compute capability 8.6, minimum driver version 525.60 required", "gpu-arch-unsupported"),
    # a pinned variant pip cannot see is told by pip's own signature, uv's words are not needed
    ("No solution found when resolving dependencies: Because numpy==2.0.0 depends on python>=3.9",
     "wrong-index-variant"),
    # a Node addon, a MATLAB MEX file: libraries, not the program (review)
    ("node: symbol lookup error: /app/node_modules/@tensorflow/tfjs-node/lib/napi-v8/tfjs_binding.node: "
     "undefined symbol: TF_AddGradientsWithPrefix", "dll-version-conflict"),
    ("MATLAB: symbol lookup error: /home/u/proj/mexfunc.mexa64: undefined symbol: mxGetPr_800",
     "dll-version-conflict"),
    # make's exit status 126 is a command that could not run (review)
    ("make: *** [load] Error 126", "missing-shared-library"),
    # a minimum of memory, of CUDA, of a learning rate beside a compute capability (review)
    ("NVIDIA GPU with compute capability 7.0 or higher\n- Minimum 8.0 GB of VRAM\n"
     "ImportError: cannot import name 'x'", "gpu-arch-unsupported"),
    ("Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
     "Minimum requirements: CUDA 12.1, cuDNN 8.9\nRuntimeError: CUDA error", "gpu-arch-unsupported"),
    # a wish, advice, a choice: no installer picked the variant (review)
    ("How do I get the cuda version instead of rocm? I have an NVIDIA card and it fails",
     "wrong-index-variant"),
    ("For AMD GPUs, install the ROCm build instead of the CUDA build: it fails otherwise",
     "wrong-index-variant"),
]

HEALTHY: list[str] = [
    "torch 2.5.1+rocm6.2 installed from the rocm6.2 index on my RX 7900; the model trains.",
    "The RTX 4090 has compute capability 8.9; everything builds and runs.",
    "Resolved 42 packages in 310ms\nInstalled 3 packages in 12ms",
    "Created device /gpu:0 with compute capability: 8.6\nEpoch 1/10 loss: 0.52 minimum lr 1.0e-5",
    "I'm using the cu121 build instead of cu118 since my driver supports 12.2, and everything works fine.",
]

