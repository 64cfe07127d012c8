"""Names that wheel repair tools give the libraries they vendor, and what those names prove.

auditwheel (Linux) copies each external library into ``<pkg>.libs`` as
``libgfortran-040039e1.so.5.0.0``: the 8 hex digits are the start of the sha256 of the
*original* file, taken before patchelf rewrites its SONAME and RUNPATH
(https://github.com/pypa/auditwheel/blob/main/src/auditwheel/repair.py, ``copylib``).
delvewheel (Windows) mangles ``msvcp140.dll`` into ``msvcp140-<hash>.dll`` from the DLL's
contents (https://github.com/adang1345/delvewheel#name-mangling). So two packages that ship
the same hashed name ship one library, patched separately: their bytes differ by a rewritten
header and nothing else, and whichever copy loads first serves both correctly.
"""

from __future__ import annotations

import re
from typing import Optional

_HASHED = re.compile(r"^(?P<stem>.+)-(?P<hash>[0-9a-f]{8,})(?P<rest>\..+)$")
_SO_VERSION = re.compile(r"\.so(?:\.\d+)*$")


def repair_hash(path_or_name: str) -> Optional[str]:
    """The repair tool's content hash in a library's base name (None when it has none).

    Only names of shared libraries count (``.so``, ``.so.N``, ``.dll``, ``.dylib``):
    ``lib.cpython-311-x86_64-linux-gnu.so`` has no hex run before its dot.
    """
    base = path_or_name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    m = _HASHED.match(base)
    if m is None:
        return None
    rest = m.group("rest")
    # auditwheel splits the name at its first dot (libopenblasp-r0.3.15.so -> libopenblasp-r0-<hash>.3.15.so,
    # libglib-2.0.so.0 -> libglib-2-<hash>.0.so.0); an extension module's tag is no library version
    if ".cpython-" in rest or ".abi3." in rest or not (_SO_VERSION.search(rest) or rest in (".dll", ".dylib")
                                                         or rest.endswith(".dylib")):
        return None
    return m.group("hash")


def same_vendored_library(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` carry one repair-tool name (same hash): one original library."""
    base_a = a.replace("\\", "/").rsplit("/", 1)[-1].lower()
    base_b = b.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return base_a == base_b and repair_hash(base_a) is not None
