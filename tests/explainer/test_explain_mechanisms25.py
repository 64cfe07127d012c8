"""Mechanism-level rules, twenty-fifth round (issue 14, item 2): written on generation 20's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text

# (text, the cause the mechanism implies first)
CASES = [
    # a find-links page whose placeholder was never filled: pip shows the page it read
    ("$ pip install torch-scatter -f https://data.pyg.org/whl/torch-${TORCH}+${CUDA}.html\n"
     "Looking in links: https://data.pyg.org/whl/torch-+.html\n"
     "ERROR: Could not find a version that satisfies the requirement torch-scatter", "wrong-index-variant"),
    ("C:\\> pip install torch-sparse -f https://data.pyg.org/whl/torch-${TORCH}.html\n"
     "Looking in links: https://data.pyg.org/whl/torch-${TORCH}.html\n"
     "ERROR: No matching distribution found for torch-sparse", "wrong-index-variant"),
    ("It still fails when I run pip install torch-cluster -f https://data.pyg.org/whl/torch-2.4.0+${118}.html",
     "wrong-index-variant"),
    # DGL has no library for the torch release it found
    ("FileNotFoundError: Cannot find DGL C++ graphbolt library at /opt/conda/lib/python3.11/site-packages/dgl/"
     "graphbolt/libgraphbolt_pytorch_2.5.0.so", "extension-abi-mismatch"),
    # DeepSpeed's CUDA comparison in the user's words
    ("Installed CUDA version 12.4 does not match torch version, when building fused_adam", "cuda-toolkit-mismatch"),
    # nvcc older than the build's own nvcc options
    ("nvcc fatal   : Unknown option '-generate-dependencies-with-compile'\nninja: build stopped: subcommand failed.\n"
     "error: command '/usr/bin/gcc' failed with exit code 1", "cuda-toolkit-mismatch"),
    ("nvcc fatal   : Unknown option '--threads'\nerror: command '/usr/local/cuda/bin/nvcc' failed with exit status 1",
     "cuda-toolkit-mismatch"),
    # a host compiler's flag handed to nvcc: the build script's
    ("nvcc fatal   : Unknown option '-fPIC'\nmake[2]: *** [CMakeFiles/ops.dir/kernel.cu.o] Error 1",
     "extension-build-env"),
    # glibc's heap abort after two imports, and the user's reversed order
    (">>> import torch\n>>> import pcl\nfree(): invalid pointer\nAborted (core dumped)", "import-order-conflict"),
    ("import tensorflow as tf\nimport cv2\nmunmap_chunk(): invalid pointer", "import-order-conflict"),
    ("When I swap the import order of the two it works, otherwise the kernel dies.", "import-order-conflict"),
    # a CUDA library asked for beside a CPU-only torch: another package's CUDA build
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n\n"
     "torch                     2.3.0+cpu\ntorchaudio                2.3.0+cpu", "wrong-index-variant"),
    ("pip list | grep torch\ntorch 2.2.1+cpu\n>>> import mylib\n"
     "OSError: libcublas.so.11: cannot open shared object file: No such file or directory", "wrong-index-variant"),
    # gaps that stop at another copy of their own start keep what they matched (the fresh-eyes
    # review's texts: a later copy that is no full start, a back-reference, a start inside a tail)
    ("ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory\n"
     "libcudart.so.10.1\nI installed CUDA Toolkit 10.1", "cuda-toolkit-mismatch"),
    ("pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu121\n"
     "pip list: torch 2.3.0.dev20240101\nOSError: [WinError 126] The specified module could not be found. "
     'Error loading "C:\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
     "known-bad-release"),
    ("I installed the nightly version of torch\npip install --pre torch --index-url "
     "https://download.pytorch.org/whl/nightly/cpu\n>>> import torchvision\n"
     "ImportError: cannot import name 'x' from 'torch'", "known-bad-release"),
    ("I get a lot of detections that don't exist. I tried lots of settings and a lot of thresholds.\n"
     "I am using the CPU.", "known-bad-release"),
    ("I installed h5py and netCDF4 in one env.\nNow importing h5py segfaults with netCDF4 imported first.",
     "dll-version-conflict"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # a placeholder in a command alone: it may be set
    ("export TORCH=2.1.0\npip install torch-scatter -f https://data.pyg.org/whl/torch-${TORCH}.html\n"
     "error: command 'gcc' failed with exit status 1", "wrong-index-variant"),
    # a filled find-links page
    ("Looking in links: https://data.pyg.org/whl/torch-2.1.0+cu121.html\nCollecting torch-scatter\n"
     "Downloading torch_scatter-2.1.2.tar.gz\nerror: command 'gcc' failed with exit status 1", "wrong-index-variant"),
    # DGL's own library (libdgl.so), not a per-torch one
    ("OSError: libdgl.so: cannot open shared object file: No such file or directory", "extension-abi-mismatch"),
    # the comparison that matched: no mismatch
    ("Installed CUDA version 12.1 matches torch version 12.1, building ops", "cuda-toolkit-mismatch"),
    # order of something else
    ("I changed the order of the layers and now the loss is nan", "import-order-conflict"),
    # a frozen app's missing module is no runtime of another PC (PyInstaller's own frame between)
    ("My pyinstaller exe works here but fails on another computer:\nTraceback (most recent call last):\n"
     '  File "PyInstaller\\loader\\pyimod02_importers.py", line 499, in exec_module\n'
     "ModuleNotFoundError: No module named 'sklearn.utils._weight_vector'", "missing-vc-runtime"),
    # a CUDA library missing beside a CUDA torch: the library's own rules
    ("ImportError: libcudart.so.12: cannot open shared object file\ntorch 2.3.0+cu121", "wrong-index-variant"),
]

# words of success: no answer
HEALTHY = [
    "Looking in links: https://data.pyg.org/whl/torch-2.5.0+cu124.html\nSuccessfully installed torch-scatter-2.1.2",
    "pip install dgl -f https://data.dgl.ai/wheels/torch-2.4/cu124/repo.html\nSuccessfully installed dgl-2.4.0",
    "torch 2.3.0+cpu runs fine on my laptop",
    "Swapped the order of the two imports with isort for style; all tests pass.",
]


def test_a_network_failure_beside_a_python_is_no_named_python() -> None:
    """The exclusion look-ahead reads the whole line, past a second "wheel" (the review)."""
    text = "ERROR: Cannot install torch for Python 3.12 (wheel download failed: connection timed out)"
    hits = {h.signature for c in diagnose_text(text, words=False).shown for h in c.hits}
    assert "install-failure-for-named-python" not in hits
    assert "install-failure-for-named-python" in {
        h.signature for c in diagnose_text(text.split(" (")[0], words=False).shown for h in c.hits}
