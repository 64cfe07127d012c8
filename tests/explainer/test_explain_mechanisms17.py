"""Mechanism-level rules, seventeenth round (issue 14, item 2): written on generation 12's
held-out cases after they were measured once and joined train, each with a text of our own
writing (not a corpus case) and a look-alike it must not claim."""

from __future__ import annotations

# (text, the cause the mechanism implies first)
CASES = [
    # pip building from source and failing
    ("  Building wheel for pyaudio (pyproject.toml) ... error\n  error: subprocess-exited-with-error",
     "extension-build-env"),
    ("ERROR: Could not build wheels for pyworld, which is required to install pyproject.toml-based projects",
     "extension-build-env"),
    # a manylinux wheel for a newer glibc
    ("ERROR: foo-1.0-cp311-cp311-manylinux_2_35_x86_64.whl is not a supported wheel on this platform.\n"
     "Ubuntu 20.04, Python 3.11", "glibcxx-too-old"),
    # a name missing from the framework's own modules
    ("ImportError: cannot import name 'SAVE_STATE_WARNING' from 'torch.optim.lr_scheduler'", "companion-mismatch"),
    ("AttributeError: module 'torch' has no attribute 'compiler'", "companion-mismatch"),
    ("AttributeError: module 'tensorflow.compat.v2.__internal__' has no attribute 'register_load_context_function'",
     "companion-mismatch"),
    # torchaudio's sox backend without libsox
    ("RuntimeError: load requires sox extension which is not available.", "missing-shared-library"),
    # sudo running root's Python
    ("sudo python3 setup.py install\nTraceback (most recent call last):\n  File \"setup.py\", line 3, in <module>\n"
     "ModuleNotFoundError: No module named 'torch'", "interpreter-mismatch"),
    # ld's message with a Markdown closing backtick
    ("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38` not found (required by foo.so)",
     "glibcxx-too-old"),
    ("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34` not found...", "glibcxx-too-old"),
    # torch's architecture check, wrapped
    ("NVIDIA GeForce RTX 5090 with CUDA capability\nsm_120 is not compatible with the current PyTorch\n"
     "installation.", "gpu-arch-unsupported"),
    # the user's retelling of a wrong ELF class
    ("pip install works but importing fails with an ELF CLASS error on the Raspberry Pi", "wrong-architecture"),
    # pip's resolver
    ("The conflict is caused by:\n    The user requested torch==1.13.1\n    torchvision 0.16.0 depends on "
     "torch==2.1.0", "requirement-conflict"),
    # a Node.js binary for another platform
    ("Error: Unsupported system: cpu-linux-arm64-ia32", "wrong-architecture"),
    ("npm ERR! Error: Unsupported system: cpu-win32-ia32", "wrong-architecture"),
    # nnU-Net's workers
    ("RuntimeError: One or more background workers are no longer alive. Exiting.", "dataloader-worker-crash"),
    # the fresh-eyes review's variants
    ("error: Failed to build `pyaudio==0.2.14`\n  Caused by: Build backend failed to build wheel",
     "extension-build-env"),
    ("ERROR: isaacsim-4.5.0.0-cp310-none-manylinux_2_34_x86_64.manylinux_2_35_x86_64.whl is not a supported "
     "wheel on this platform.\nUbuntu 22.04, python 3.10.12", "glibcxx-too-old"),
    ("GeForce RTX 5080 with CUDA capability sm_120 is not compatible with the current\n        PyTorch "
     "installation.", "gpu-arch-unsupported"),
    ("sudo -H pip3 install -r requirements.txt\nsudo python3 app.py\nModuleNotFoundError: No module named 'flask'",
     "interpreter-mismatch"),
    # moviepy 2.0 without moviepy.editor
    ("from moviepy.editor import VideoFileClip\nModuleNotFoundError: No module named 'moviepy.editor'",
     "requirement-conflict"),
    # PyAV 14's pict_type under torchvision's writer
    ("torchvision/io/video.py:158: in write_video\n    frame.pict_type = \"NONE\"\n"
     "av/video/frame.pyx:193: in av.video.frame.VideoFrame.pict_type.__set__\nE   TypeError: an integer is required",
     "requirement-conflict"),
    # cv2 without its contrib modules
    ("AttributeError: module 'cv2' has no attribute 'xfeatures2d'", "duplicate-install"),
]

# (look-alike text, a cause it must not put first)
NOT_CLAIMED = [
    # a wheel built fine
    ("  Building wheel for pyaudio (pyproject.toml) ... done\nSuccessfully installed pyaudio-0.2.14",
     "extension-build-env"),
    # manylinux2014 is glibc 2.17: the Python tag is what is refused
    ("ERROR: foo-1.0-cp39-cp39-manylinux2014_x86_64.whl is not a supported wheel on this platform.",
     "glibcxx-too-old"),
    # a manylinux_2_28 wheel whose Python tag is not the Python shown
    ("ERROR: foo-1.0-cp312-cp312-manylinux_2_28_x86_64.whl is not a supported wheel on this platform.\n"
     "Python 3.10.12", "glibcxx-too-old"),
    # a local torch.py: the attribute a shadowing file lacks
    ("AttributeError: module 'torch' has no attribute 'cuda'", "companion-mismatch"),
    # the user's own module
    ("ImportError: cannot import name 'Net' from 'models.torchnet'", "companion-mismatch"),
    # a resolver conflict whose dependency has no release here: the Python or platform
    ("The conflict is caused by:\n    ddddocr 1.1.0 depends on onnxruntime\nERROR: Could not find a version that "
     "satisfies the requirement onnxruntime (from versions: none)", "requirement-conflict"),
    # the fresh-eyes review's look-alikes
    ("AttributeError: module 'torch' has no attribute 'randn' (consider renaming '/home/u/proj/torch.py' if it "
     "has the same name as a library you intended to import)", "companion-mismatch"),
    ("AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'", "companion-mismatch"),
    ("  Failed building wheel for pycocotools\n  Running setup.py install for pycocotools ... done\n"
     "Successfully installed pycocotools-2.0\nRuntimeError: CUDA out of memory", "extension-build-env"),
    ("Ignored the following versions that require a different python version: 1.25.0 Requires-Python >=3.9\n"
     "ERROR: Could not find a version that satisfies the requirement numpy==1.25.0 (from versions: 1.19.0, "
     "1.24.4)\nThe conflict is caused by:\n    The user requested numpy==1.25.0", "requirement-conflict"),
    ("RuntimeError: One or more background workers are no longer alive.\nException in background worker 3:\n"
     "ValueError: could not broadcast input array from shape (3,128) into shape (3,64)", "dataloader-worker-crash"),
    # a cv2 attribute every build has, misspelt
    ("AttributeError: module 'cv2' has no attribute 'imshow_'", "duplicate-install"),
    # moviepy imported fine, another module missing
    ("from moviepy import VideoFileClip\nModuleNotFoundError: No module named 'imageio_ffmpeg'",
     "requirement-conflict"),
]

HEALTHY = [
    "Building wheel for pyworld (pyproject.toml) ... done",
]


def test_sudo_is_read_up_to_the_users_next_command() -> None:
    """sudo's run ends where the user types the next command: a module missing after
    `source venv/bin/activate` is not root's Python."""
    from dldoctor.explainer.match import find_hits
    from dldoctor.explainer.signatures import load_signatures

    later = ("sudo bash install_deps.sh\nsource venv/bin/activate\npython demo.py\n"
             "ModuleNotFoundError: No module named 'cv2'")
    same = "sudo python3 demo.py\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'cv2'"
    assert "sudo-run-module-missing" not in find_hits(later, load_signatures())
    assert "sudo-run-module-missing" in find_hits(same, load_signatures())
