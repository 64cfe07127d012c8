"""Bounds-checked random access to a window of a file.

Every read the format readers make goes through :class:`View`, which checks
offset and length against the window before touching the data, so a hostile
offset becomes a :class:`BinaryFormatError` naming the structure, never an
IndexError, a struct.error or a giant allocation. The window is a memory map
where the OS allows one (only the pages actually read are paged in, so a
400 MB library costs what a small one does) and plain seek/read otherwise.

The file's size is no bound on cost: a sparse file can claim terabytes for
nothing. So two more limits hold whatever a header claims: no single read
is larger than :data:`MAX_READ` (the readers read records, never tables at
once), and the names of one file (DT_NEEDED, RPATH, version names, DLL and
install names) add up to at most :data:`MAX_NAME_BYTES`, a thousand times
what the largest real library needs (1.1 KB: libncurses' version needs).
"""

from __future__ import annotations

import struct
from typing import IO, Any, Protocol, Tuple

from ._record import BinaryFormatError

#: Longest name or path list read from a string table; longer means hostile.
MAX_STRING = 65536
#: Largest single read a reader may make; a structure claiming more is hostile.
MAX_READ = 1 << 20
#: All names read from one file, together (real files: at most ~1 KB).
MAX_NAME_BYTES = 1 << 20


class _FileSource:
    """Seek/read fallback for files that cannot be mapped (e.g. a 32-bit Python)."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f

    def __getitem__(self, s: slice) -> bytes:
        self._f.seek(s.start)
        return self._f.read(s.stop - s.start)

    def find(self, sub: bytes, start: int, end: int) -> int:
        return find_in_chunks(self, sub, start, end, 4096)


def find_in_chunks(src: Source, sub: bytes, start: int, end: int, step: int) -> int:
    """``find`` for sources that read in pieces: chunk by chunk, stopping at a hit (names
    are short; a NUL is found in the first chunk). ``sub`` must be one byte long."""
    pos = start
    while pos < end:
        chunk = src[pos : min(end, (pos // step + 1) * step)]
        i = chunk.find(sub)
        if i >= 0:
            return pos + i
        if not chunk:
            break
        pos += len(chunk)
    return -1


class Source(Protocol):
    """What a View reads from: a memory map, bytes, a seek/read file, or any lazy source
    (a wheel member decompressed on demand) with slicing and a bounded ``find``."""

    def __getitem__(self, s: slice, /) -> bytes: ...

    def find(self, sub: bytes, start: int, end: int, /) -> int: ...


class _Budget:
    """Name bytes left to read from one file (shared by a file's sub-views)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


class View:
    """A window ``[base, base + size)`` of a source, with checked reads."""

    __slots__ = ("_base", "_budget", "_src", "size")

    def __init__(self, src: Source, size: int, base: int = 0, budget: _Budget | None = None) -> None:
        self._src = src
        self._base = base
        self.size = size
        self._budget = budget or _Budget(MAX_NAME_BYTES)

    def check(self, off: int, n: int, what: str) -> None:
        """Raise unless ``n`` bytes at ``off`` lie inside the window."""
        if off < 0 or n < 0 or off + n > self.size:
            raise BinaryFormatError(
                f"{what} at offset {off:#x} (+{n:#x}) lies outside the file "
                f"({self.size:#x} bytes): truncated or corrupt"
            )

    def read(self, off: int, n: int, what: str) -> bytes:
        if n > MAX_READ:
            raise BinaryFormatError(f"{what} claims {n} bytes: more than any real header holds")
        self.check(off, n, what)
        start = self._base + off
        return bytes(self._src[start : start + n])

    def unpack(self, st: struct.Struct, off: int, what: str) -> Tuple[Any, ...]:
        self.check(off, st.size, what)
        start = self._base + off
        return st.unpack(self._src[start : start + st.size])

    def cstring(self, off: int, end: int, what: str, limit: int = MAX_STRING) -> str:
        """The NUL-terminated string at ``off``, which must end before ``end``."""
        end = min(end, self.size, off + limit)
        if off < 0 or off >= end:
            raise BinaryFormatError(f"{what}: string offset {off:#x} lies outside its table")
        nul = self._src.find(b"\0", self._base + off, self._base + end)
        if nul < 0:
            raise BinaryFormatError(f"{what}: unterminated string at offset {off:#x}")
        self._budget.left -= nul - self._base - off
        if self._budget.left < 0:
            raise BinaryFormatError(
                f"{what}: the file's names exceed {MAX_NAME_BYTES} bytes: hostile or corrupt"
            )
        raw = self._src[self._base + off : nul]
        return bytes(raw).decode("utf-8", "surrogateescape")

    def sub(self, off: int, n: int, what: str) -> View:
        """A narrower window (a Mach-O fat slice) with its own offset 0, same name budget."""
        self.check(off, n, what)
        return View(self._src, n, self._base + off, self._budget)
