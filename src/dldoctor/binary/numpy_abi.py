"""Which NumPy C API a compiled module was built against, read from its bytes.

NumPy's ``import_array()`` (``__multiarray_api.h``) is compiled into every extension that uses
the NumPy C API, with the name of the module it imports as a string literal: NumPy 1.x headers
name ``numpy.core._multiarray_umath`` (``numpy.core.multiarray`` before 1.16); NumPy 2 headers
name ``numpy._core._multiarray_umath`` first and keep the 1.x name as a fallback, so a 2.x build
runs on both. A module that names only the 1.x spelling was built against NumPy 1.x and fails
under NumPy 2 ("A module that was compiled using NumPy 1.x cannot be run in NumPy 2",
"numpy.dtype size changed", "_ARRAY_API not found"). Literals are matched whole, NUL on both
sides, so that ``numpy.core.multiarray._reconstruct`` (a pickle name) does not count.

Verified on real wheels: pandas 1.5.3 and opencv-python 4.8.0.74 (1.x builds) against pandas
2.2.3 and opencv-python 4.10.0.84 (2.x builds); tests/checks/test_compat_envs.py.
"""

from __future__ import annotations

from typing import BinaryIO, Optional

NUMPY2 = (b"\0numpy._core._multiarray_umath\0", b"\0numpy._core.multiarray\0")
NUMPY1 = (b"\0numpy.core._multiarray_umath\0", b"\0numpy.core.multiarray\0")
CHUNK = 4 << 20
LIMIT = 512 << 20  # larger files (libtorch_cpu, cuDNN) are not scanned: they do not hold import_array
_OVERLAP = max(len(m) for m in NUMPY1 + NUMPY2) - 1


def numpy_build(path: str, limit: int = LIMIT) -> Optional[str]:
    """"2" when the file was built against NumPy 2 headers, "1" when against NumPy 1.x only,
    None when it does not use NumPy's C API (or is larger than ``limit``)."""
    with open(path, "rb") as fh:
        return scan(fh, limit)


def scan(fh: BinaryIO, limit: int = LIMIT) -> Optional[str]:
    """:func:`numpy_build` of an open binary stream (read in bounded chunks)."""
    seen_one = False
    tail = b""
    read = 0
    while read < limit:
        block = fh.read(min(CHUNK, limit - read))
        if not block:
            break
        read += len(block)
        data = tail + block
        if any(m in data for m in NUMPY2):
            return "2"
        seen_one = seen_one or any(m in data for m in NUMPY1)
        tail = data[-_OVERLAP:]
    else:
        if fh.read(1):
            return None  # too large to judge: say nothing rather than guess
    return "1" if seen_one else None
