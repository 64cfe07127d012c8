"""Mechanism-level rules, nineteenth round (issue 14, item 2): written on generation 14's train
cases, each with a text of our own writing (not a corpus case) and a look-alike it must not
claim."""

from __future__ import annotations

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.releases import mentioned_versions

# (text, the cause the mechanism implies first)
CASES = [
    # a build without the distributed backends
    ("AttributeError: module 'torch.distributed' has no attribute 'init_process_group'", "nccl-unavailable"),
    ("  File \"train.py\", line 3\n    dist.barrier(group=dist.group.WORLD)\n"
     "AttributeError: module 'torch.distributed' has no attribute 'group'", "nccl-unavailable"),
    ("trainer.fit(model)\nRuntimeError: No rendezvous handler for env://", "nccl-unavailable"),
    ("RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build "
     "PyTorch from source on a host that has MPI installed.", "nccl-unavailable"),
    ("tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'NcclAllReduce' in binary",
     "nccl-unavailable"),
    ("I get errors with DDP. Windows does not support the NCCL backend, right?", "nccl-unavailable"),
    # Windows' commit limit
    ("RuntimeError: [enforce fail at C:\\cb\\pytorch_1000000000000\\work\\c10\\core\\impl\\alloc_cpu.cpp:81] "
     "data. DefaultCPUAllocator: not enough memory: you tried to allocate 58982400 bytes.", "pagefile-too-small"),
    # CPython's own API from another interpreter, on macOS too
    ("ImportError: dlopen(/opt/lib/_ext.so, 2): Symbol not found: _PyBytes_FromStringAndSize\n"
     "  Referenced from: /opt/lib/_ext.so\n  Expected in: flat namespace", "interpreter-mismatch"),
    ("ImportError: /opt/ros/lib/cv2.so: undefined symbol: PyModule_Create2", "interpreter-mismatch"),
    ("ImportError: dlopen(cv2.so, 2): Symbol not found: _PyCObject_Type\n  Expected in: flat namespace",
     "pythonpath-pollution"),
    # a library bound to another copy of a system library (macOS)
    ("dlopen(/Users/u/miniconda3/lib/python3.11/site-packages/lxml/etree.so, 0x0002): Symbol not found: _libiconv\n"
     "  Referenced from: <AB12-CD34> /Users/u/miniconda3/lib/libxml2.2.dylib\n"
     "  Expected in:     <EF56-7890> /usr/lib/libiconv.2.dylib", "ld-library-path-override"),
    ("dyld: Symbol not found: __cg_jpeg_resync_to_restart\n  Referenced from: /System/Library/Frameworks/"
     "ImageIO.framework/Versions/A/ImageIO\n  Expected in: /opt/gimp/lib/libJPEG.dylib", "ld-library-path-override"),
    ("Importing torch fails with undefined symbol _THError. The LD_LIBRARY_PATH includes "
     "/opt/tritonserver/lib/pytorch", "ld-library-path-override"),
    ("bash: /home/u/miniconda3/envs/ml/lib/libtinfo.so.6: no version information available (required by bash)",
     "ld-library-path-override"),
    ("code: symbol lookup error: /snap/core20/current/lib/x86_64-linux-gnu/libpthread.so.0: undefined symbol: "
     "__libc_pthread_init, version GLIBC_PRIVATE", "ld-library-path-override"),
    ("libGL error: MESA-LOADER: failed to open iris: /home/u/miniconda3/envs/sim/bin/../lib/libstdc++.so.6: "
     "version `GLIBCXX_3.4.30' not found", "glibcxx-too-old"),
    # C and C++ runtime versions named in the user's words
    ("The binary needs GLIBC_2.34 but CentOS 7 ships 2.17. Can you build it on CentOS?", "glibcxx-too-old"),
    ("启动时报错，需要GLIBC_2.34版本", "glibcxx-too-old"),
    # versions that do not fit
    ("KeyError: \"Couldn't find field google.protobuf.FileOptions.php_metadata_namespace\"", "requirement-conflict"),
    ("Failed to load library libonnxruntime_providers_tensorrt.so with error: /opt/ort/lib/"
     "libonnxruntime_providers_tensorrt.so: undefined symbol: getBuilderPluginRegistry", "cuda-toolkit-mismatch"),
    ("from pydub import AudioSegment\nModuleNotFoundError: No module named 'audioop'", "unsupported-python"),
    ("    import imp\nModuleNotFoundError: No module named 'imp'", "unsupported-python"),
    ("  File \"main.py\", line 40, in run\n    t0 = time.clock()\n"
     "AttributeError: module 'time' has no attribute 'clock'", "unsupported-python"),
    ("AttributeError: module 'collections' has no attribute 'MutableMapping'", "unsupported-python"),
    ("ImportError: cannot import name 'gcd' from 'fractions' (/usr/lib/python3.9/fractions.py)", "unsupported-python"),
    ("AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?",
     "unsupported-python"),
    ("ImportError: This version of TensorFlow Probability requires TensorFlow version >= 2.14; Detected an "
     "installation of version 2.12.0. Please upgrade TensorFlow to proceed.", "companion-mismatch"),
    # a framework another library imports
    ("from diffusers import StableDiffusionPipeline\nAttributeError: module 'jax.random' has no attribute 'KeyArray'",
     "transitive-framework-import"),
    ("writer.add_embedding(feats)\nAttributeError: module 'tensorflow._api.v2.io.gfile' has no attribute "
     "'get_filesystem'", "transitive-framework-import"),
    # the user's own account of an order
    ("If I import rasterio without first importing gdal I get: ImportError: DLL load failed", "import-order-conflict"),
    # GPUs, drivers and builds
    ("Ignoring visible gpu device (device: 0, name: Tesla K80, pci bus id: 0000:00:04.0, compute capability: 3.7) "
     "with Cuda compute capability 3.7. The minimum required Cuda capability is 6.0.", "gpu-arch-unsupported"),
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on "
     "non supported HW", "driver-too-old"),
    ("WARNING:absl:No GPU/TPU found, falling back to CPU.", "cpu-only-build"),
    ("Encountered problems while solving:\n  - package pytorch-2.1.0 requires cudatoolkit >=11.8, but none of the "
     "providers can be installed", "conda-solver-conflict"),
    # a listed release of another framework, killed by an instruction its wheels should not use
    ("Installed tensorflow-2.4.0-cp38-cp38-manylinux2010_x86_64.whl\n$ python -c 'import tensorflow'\n"
     "Illegal instruction (core dumped)", "known-bad-release"),
    # workers and shared memory
    ("训练时报 bus error，insufficient shared memory (shm)", "dataloader-worker-crash"),
    # another CPU's binaries, emulated or refused, and 32-bit or too-new interpreters
    ("web_1  | qemu: uncaught target signal 11 (Segmentation fault) - core dumped", "wrong-architecture"),
    ("qemu-x86_64: Could not open '/lib64/ld-linux-x86-64.so.2': No such file or directory", "wrong-architecture"),
    ("zsh: bad CPU type in executable: ./tool", "wrong-architecture"),
    ("RuntimeError: Not supported on 32-bit Windows", "python-32bit"),
    ("hint: You require CPython 3.13 (`cp313`), but we only found wheels for `psycopg-binary` (v3.1) with the "
     "following Python ABI tags: `cp37m`, `cp38`", "unsupported-python"),
    ("RuntimeError: Cannot install on Python version 3.12.0; only versions >=3.8,<3.12 are supported.",
     "unsupported-python"),
    # loaders and their messages
    ("ImportError: failed to find libmagic.  Check your installation", "missing-shared-library"),
    ("Plugin 'MyPlugin' failed to load because module 'MyPlugin' could not be loaded.  There may be an operating "
     "system error or the module may not be properly set up.", "missing-shared-library"),
    ("The code execution cannot proceed because VCRUNTIME_140_1.dll was not found.", "missing-vc-runtime"),
    ("Cannot mix incompatible Qt library (version 0x50f02) with this library (version 0x50c08)",
     "dll-version-conflict"),
    ("ImportError: DLL load failed while importing win32api: The specified module could not be found.",
     "missing-shared-library"),
]

# (a look-alike, a cause it must not put first)
NOT_CLAIMED = [
    # torch.distributed's newer API on an older torch: a version, not a missing backend
    ("AttributeError: module 'torch.distributed' has no attribute 'device_mesh'", "nccl-unavailable"),
    # a rendezvous that was set up and timed out
    ("RendezvousTimeoutError: rendezvous handler for c10d timed out after 900 seconds", "nccl-unavailable"),
    # Linux's out-of-memory words, and terabytes asked for by a bug
    ("RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: can't allocate memory: "
     "you tried to allocate 1073741824 bytes. Error code 12 (Cannot allocate memory)", "pagefile-too-small"),
    ("DefaultCPUAllocator: not enough memory: you tried to allocate 3298534883328 bytes.", "pagefile-too-small"),
    # macOS libraries that exist only in /usr/lib: an older macOS, not an override
    ("Symbol not found: _compression_encode_buffer\n  Referenced from: /Users/u/miniconda3/lib/libarchive.20.dylib\n"
     "  Expected in: /usr/lib/libcompression.dylib", "ld-library-path-override"),
    ("Symbol not found: _foo\n  Referenced from: /Users/u/miniconda3/lib/libbar.dylib\n"
     "  Expected in: /usr/lib/libSystem.B.dylib", "ld-library-path-override"),
    # symbol versions listed, not needed
    ("nm -D libfoo.so | grep memcpy\n U memcpy@GLIBC_2.14", "glibcxx-too-old"),
    ("auditwheel show: versions {'GLIBC_2.2.5', 'GLIBC_2.14'}\nNo module named 'foo'", "glibcxx-too-old"),
    ("System: Ubuntu 20.04 (GLIBC_2.31)\nTorch not compiled with CUDA enabled", "glibcxx-too-old"),
    # the loader variable described, or unset without a fix
    ("My DYLD_LIBRARY_PATH contains nothing special. Error: Symbol not found: _foo", "ld-library-path-override"),
    ("No module named 'torch'\nI tried unsetting LD_LIBRARY_PATH but no luck", "ld-library-path-override"),
    # a Mesa driver file that is not installed at all
    ("libGL error: MESA-LOADER: failed to open radeonsi: /usr/lib/dri/radeonsi_dri.so: cannot open shared object "
     "file: No such file or directory", "glibcxx-too-old"),
    # a listed release beside another failure than its own
    ("torch 2.3.0\nIllegal instruction (core dumped)", "known-bad-release"),
    ("pip install tensorflow==2.4.0\nImportError: cannot import name 'dtensor' from "
     "'tensorflow.compat.v2.experimental'", "known-bad-release"),
    ("Windows10 itk 5.1.0.post2 ImportError: DLL load failed while importing _ITKPyBasePython", "known-bad-release"),
    # lib2to3 is its own Debian package
    ("Python 3.10.12 (Ubuntu)\nModuleNotFoundError: No module named 'lib2to3'", "unsupported-python"),
    # a module of the user's own named like a removed one
    ("No module named 'imp_utils'", "unsupported-python"),
    # a name collections still has, and time's other functions
    ("AttributeError: module 'collections' has no attribute 'OrderedDictt'", "unsupported-python"),
    ("AttributeError: module 'time' has no attribute 'clock_gettime_ns'", "unsupported-python"),
    # an order mentioned beside no failure it causes
    ("Note: always import numpy before pandas. Training finished without error.", "import-order-conflict"),
    ("I get a warning when importing foo first, but it works", "import-order-conflict"),
    ("ImportError: cannot import name 'Foo'. I tried importing bar first but same error", "import-order-conflict"),
    ("# importing sklearn first fixes nothing; error persists: ValueError: shapes (2,3) and (4,5)",
     "import-order-conflict"),
    # a JAX key type named in a deprecation
    ("key = jax.random.PRNGKey(0)  # jax.random.KeyArray is deprecated", "transitive-framework-import"),
    # a bus error from a program that has nothing to do with workers, and shm's size flag
    ("Bus error (core dumped) in my C program reading a mmap'd file", "dataloader-worker-crash"),
    ("Bus error in my C program; docker run --shm-size=1g was already set", "dataloader-worker-crash"),
    # QEMU named without a crash, and a CPU type that is fine
    ("Setting up qemu-user-static (1:6.2) ... binfmt registered", "wrong-architecture"),
    # a GPU new enough
    ("Ignoring visible gpu device ... The minimum required Cuda capability is 3.5. Device is fine.", "driver-too-old"),
]

# words of success: no answer
HEALTHY = [
    "Rendezvous complete: 2 workers joined; process group ready",
    "MESA-LOADER: loaded driver iris for /dev/dri/card0",
]


def test_a_harmless_loader_warning_or_a_cpu_run_is_a_lead_only() -> None:
    """A libtinfo warning beside a finished run, or JAX's CPU notice beside the user's own shape
    error, may be named, but only as a weak lead (below the fallback threshold of 0.3)."""
    for text in ("/opt/conda/lib/libtinfo.so.6: no version information available (required by /bin/sh)\n"
                 "Epoch 1/10 accuracy 0.98",
                 "WARNING:absl:No GPU/TPU found, falling back to CPU.\nTypeError: dot_general requires contracting "
                 "dimensions to have the same shape"):
        assert all(c.confidence <= 0.3 for c in diagnose_text(text, words=False).candidates)


def test_the_release_table_reads_tensorflow_releases() -> None:
    """A distribution the table lists is read from its wheel name (tensorflow 2.4.0's AVX2 build)."""
    assert mentioned_versions("pip, tensorflow-2.4.0-cp38-cp38-manylinux2010_x86_64.whl") == {"tensorflow": {"2.4.0"}}
