"""Mechanism-level rules, fourteenth round (issue 14, item 2): written on generation 10's held-out
cases once they were measured and joined train, each with a text of our own writing (not a
corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # ONNX Runtime's C API refused by an older onnxruntime.dll, in more of its wordings
    ("Unhandled exception: nullptr returned by OrtGetApiBase()->GetApi(ORT_API_VERSION)", "dll-version-conflict"),
    ("EntryPointNotFoundException: Cannot find entry point 'OrtGetApiBase' in onnxruntime", "dll-version-conflict"),
    ("引发了异常: 读取访问权限冲突。 Ort::GetApi(...) 返回 nullptr。", "dll-version-conflict"),
    # Windows' loader: a DLL without an entry point the program imports
    ("error: process didn't exit successfully: `target\\debug\\app.exe` (exit code: 0xc0000139, "
     "STATUS_ENTRYPOINT_NOT_FOUND)", "dll-version-conflict"),
    # a build without code for the GPU's generation says so
    ("WARNING: NVIDIA GPU 0: miner not compiled for the gpu architecture 30.", "gpu-arch-unsupported"),
    ("UserWarning: You will need a GPU with NVIDIA Volta or newer architecture", "gpu-arch-unsupported"),
    ("The installer says nothing under CUDA compute capability 7.0 can be used; my card is a GTX 1080",
     "gpu-arch-unsupported"),
    ("Why isn't Maxwell supported anymore? It ran last year", "gpu-arch-unsupported"),
    # torch 2.4.0's wrong results on the CPU, told without a YOLO line
    ("Ultralytics YOLOv8.2.70 Python-3.11 torch-2.4.0+cpu CPU\nI get a lot of detections that do not exist",
     "known-bad-release"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # a GetApi that returns a valid pointer; the entry point found
    ("Ort::GetApi() returned a valid pointer and the session runs", "dll-version-conflict"),
    # a build for a newer generation, which this GPU is
    ("Built for the Ampere or newer architecture; my RTX 3090 runs it fine", "gpu-arch-unsupported"),
    # many boxes on a GPU machine, no CPU, no Windows: a crowded image
    ("my street camera shows a lot of detections at rush hour, that's expected", "known-bad-release"),
    # another exit code
    ("error: process didn't exit successfully (exit code: 0xc0000005, STATUS_ACCESS_VIOLATION)",
     "dll-version-conflict"),
]

HEALTHY = [
    "nothing to report: the miner was compiled for the gpu architecture 86 and hashes fine",
]
