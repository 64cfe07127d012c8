"""Entry points: sniff a file's format, and read its headers into a BinaryInfo.

The file is memory-mapped (seek/read where mapping fails) and only the
header structures are touched, so reading a 400 MB library costs what a
small one does. Anything that is not a regular file is refused up front:
opening a FIFO would block, and a device has no headers.
"""

from __future__ import annotations

import mmap
import os
import stat

from ._record import BinaryFormatError, BinaryInfo
from ._view import Source, View, _FileSource
from .elf import MAGIC as ELF_MAGIC
from .elf import read_elf
from .macho import MH_MAGIC, MH_MAGIC_64, is_fat, read_macho
from .pe import read_pe

__all__ = ["BinaryFormatError", "BinaryInfo", "Source", "read_binary", "read_source", "sniff_format"]

_MACHO_HEADS = {
    m.to_bytes(4, order) for m in (MH_MAGIC, MH_MAGIC_64) for order in ("little", "big")
}


def _format_of(head: bytes) -> str | None:
    if head[:4] == ELF_MAGIC:
        return "elf"
    if head[:2] == b"MZ":
        return "pe"
    if head[:4] in _MACHO_HEADS or is_fat(head):
        return "macho"
    return None


def sniff_format(path: str) -> str | None:
    """ "elf", "pe", "macho" or None, from the first 8 bytes.

    None for anything that is not a regular file; OSError when the file
    cannot be opened.
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        return None
    with open(path, "rb") as f:
        return _format_of(f.read(8))


def read_binary(path: str, prefer_machine: str | None = None) -> BinaryInfo:
    """Read the headers of the ELF, PE or Mach-O file at ``path``.

    ``prefer_machine`` picks the slice of a fat Mach-O (default: this host's
    machine). Raises BinaryFormatError for a file that is not one of those
    formats or is truncated or corrupt, OSError when it cannot be read.
    """
    # stat before open: opening a FIFO for reading would block.
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise BinaryFormatError("not a regular file")
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        try:
            src: Source = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError, OverflowError):
            src = _FileSource(f)
        try:
            return read_source(src, size, path, prefer_machine)
        finally:
            if isinstance(src, mmap.mmap):
                src.close()


def read_source(src: Source, size: int, path: str, prefer_machine: str | None = None) -> BinaryInfo:
    """Read the headers of a binary of ``size`` bytes held by ``src`` (any random-access
    source: a mapped file, or a wheel member decompressed on demand); ``path`` names it."""
    if size == 0:
        raise BinaryFormatError("empty file")
    view = View(src, size)
    fmt = _format_of(view.read(0, min(size, 8), "file header"))
    if fmt == "elf":
        return read_elf(view, path)
    if fmt == "pe":
        return read_pe(view, path)
    if fmt == "macho":
        return read_macho(view, path, prefer_machine)
    raise BinaryFormatError("not an ELF, PE or Mach-O file")
