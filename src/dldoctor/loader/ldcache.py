"""Parse ``/etc/ld.so.cache`` into a plain, snapshot-friendly list.

glibc's ld.so consults this cache after RPATH / LD_LIBRARY_PATH / RUNPATH and before the
default folders. The file is what ``ldconfig -p`` prints (the tests use it as the oracle).

Formats (glibc ``sysdeps/generic/dl-cache.h``):

* new, ``glibc-ld.so.cache`` + version ``1.1``: a 48-byte header (magic[17], version[3],
  nlibs u32, len_strings u32, flags u8, pad[3], extension_offset u32, unused[3] u32) then
  ``nlibs`` 24-byte entries (flags i32, key u32, value u32, osversion u32, hwcap u64); string
  offsets count from the start of that header;
* old, ``ld.so-1.7.0``: nlibs u32 then 12-byte entries (flags, key, value), optionally
  followed (8-byte aligned) by a new-format cache which, when present, is the one ld.so uses.

ld.so takes, among entries with the requested name, the first one in file order whose flags
are ``FLAG_ELF_LIBC6`` with the machine's ABI flag (x86-64: 0x0303, aarch64: 0x0a03, i386:
0x0003). Entries for ``glibc-hwcaps`` subfolders (hwcap bit 62) are skipped: the model does
not reproduce hwcaps subfolder selection (documented limitation; no wheel ships such folders).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Dict, Tuple

NEW_MAGIC = b"glibc-ld.so.cache1.1"
OLD_MAGIC = b"ld.so-1.7.0"
HWCAP_EXTENSION = 1 << 62
MAX_CACHE_BYTES = 64 * 1024 * 1024

# ld.so's _DL_CACHE_DEFAULT_ID per machine (FLAG_ELF_LIBC6 | arch flag).
CACHE_FLAGS: Dict[str, int] = {
    "x86_64": 0x0303,
    "aarch64": 0x0A03,
    "x86": 0x0003,
    "ppc64le": 0x0503,
    "s390x": 0x0403,
    "riscv64": 0x1103,
}


@dataclass(frozen=True)
class CacheEntry:
    """One line of ``ldconfig -p``: name, flags, hwcap and the path it points to."""

    name: str
    flags: int
    hwcap: int
    path: str


class CacheFormatError(ValueError):
    """The bytes are not an ld.so.cache this parser understands."""


def _cstr(data: bytes, offset: int) -> str:
    if not 0 <= offset < len(data):
        raise CacheFormatError(f"string offset {offset} outside the file")
    end = data.find(b"\0", offset)
    if end < 0:
        raise CacheFormatError("unterminated string")
    return data[offset:end].decode("utf-8", "surrogateescape")


def _parse_new(data: bytes, base: int) -> Tuple[CacheEntry, ...]:
    if len(data) < base + 48:
        raise CacheFormatError("truncated header")
    nlibs, _len_strings, flags = struct.unpack_from("<IIB", data, base + 20)
    endian = "<" if flags in (0, 2) else ">"
    if flags not in (0, 2):
        nlibs = struct.unpack_from(">I", data, base + 20)[0]
    if base + 48 + nlibs * 24 > len(data):
        raise CacheFormatError(f"{nlibs} entries do not fit in {len(data)} bytes")
    entries = []
    for i in range(nlibs):
        eflags, key, value, _os, hwcap = struct.unpack_from(
            endian + "iIIIQ", data, base + 48 + i * 24
        )
        entries.append(
            CacheEntry(_cstr(data, base + key), eflags, hwcap, _cstr(data, base + value))
        )
    return tuple(entries)


def parse_ld_so_cache(data: bytes) -> Tuple[CacheEntry, ...]:
    """Entries of an ld.so.cache, in file order (the order ld.so prefers them)."""
    if data.startswith(NEW_MAGIC):
        return _parse_new(data, 0)
    if data.startswith(OLD_MAGIC):
        if len(data) < 16:
            raise CacheFormatError("truncated old header")
        nlibs = struct.unpack_from("<I", data, 12)[0]
        old_end = 16 + nlibs * 12
        if old_end > len(data):
            raise CacheFormatError("old entries do not fit")
        new_base = (old_end + 7) & ~7
        if data[new_base : new_base + len(NEW_MAGIC)] == NEW_MAGIC:
            return _parse_new(data, new_base)
        entries = []
        for i in range(nlibs):
            eflags, key, value = struct.unpack_from("<iII", data, 16 + i * 12)
            entries.append(
                CacheEntry(_cstr(data, old_end + key), eflags, 0, _cstr(data, old_end + value))
            )
        return tuple(entries)
    raise CacheFormatError("not an ld.so.cache (unknown magic)")


def read_ld_so_cache(path: str = "/etc/ld.so.cache") -> Tuple[CacheEntry, ...]:
    """The host's cache; empty when the file is absent or unreadable (musl, containers)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CACHE_BYTES)
    except OSError:
        return ()
    try:
        return parse_ld_so_cache(data)
    except (CacheFormatError, struct.error):
        return ()


def cache_lookup_table(entries: Tuple[CacheEntry, ...], machine: str) -> Dict[str, str]:
    """name -> path as ld.so would pick it for ``machine`` (first acceptable entry wins)."""
    wanted: int | None = CACHE_FLAGS.get(machine)
    table: Dict[str, str] = {}
    for entry in entries:
        if entry.hwcap & HWCAP_EXTENSION or entry.hwcap:
            continue
        if wanted is not None and entry.flags != wanted:
            continue
        table.setdefault(entry.name, entry.path)
    return table
