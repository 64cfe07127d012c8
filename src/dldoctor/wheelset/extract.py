"""Read a native library's headers straight out of a wheel: nothing is extracted or written.

A header reader touches a few KB of a library (the PE headers, the import, delay-import and
export directories, the names they point at, the version resource). So a member is read
through :class:`MemberSource`, a random-access view of the member's decompressed bytes that
decompresses only up to the furthest byte the reader asks for and keeps the blocks it asked
for. The first block decides: a member that does not start like a binary (a ``.dll`` of
zeros, a text file) costs one 64 KiB block and no more. Deflate streams cannot seek, so a
request behind the stream would restart it: the sections holding the PE directories (where
the names they point at live too) are kept whole as the stream passes them, up to
:data:`MAX_KEPT`, so a real DLL (torch_cpu.dll: 309 MB, its .rdata 35 MB) is decompressed
once, up to its last directory, and never written to disk.

Header facts are cached per wheel (file name + size + mtime) in the user cache folder, so a
second run over the same wheels reads no member data at all.
"""

from __future__ import annotations

import json
import os
import struct
import zipfile
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import IO, Any, Dict, List, Optional, Set, Tuple

from dldoctor.binary import BinaryFormatError, BinaryInfo, read_source
from dldoctor.binary._view import find_in_chunks

BLOCK = 1 << 16
MAX_BLOCKS = 256  # 16 MiB of other blocks asked for, least recently used dropped
MAX_KEPT = 1024  # 64 MiB of directory sections kept per member (torch_cpu.dll's .rdata: 35 MB)
MAX_OFFSET = 4 << 30  # no real DLL is larger; a member claiming more is read no further
PE_DIRECTORIES = (0, 1, 2, 13)  # export (the DLL's own name), import, resource, delay import
CACHE_VERSION = 2
_MAGICS = (b"\x7fELF", b"MZ", b"\xfe\xed\xfa", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe",
           b"\xca\xfe\xba\xbf")


class MemberSource:
    """The decompressed bytes of one zip member, read on demand (the binary readers' Source).

    ``keep`` names the blocks to hold once the stream passes them (the PE directory
    sections); other blocks are held only when asked for. ``decompressed`` counts every
    byte inflated, restarts included: what a read cost."""

    def __init__(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        self._zf, self._info = zf, info
        self.size = info.file_size
        self._stream: Optional[IO[bytes]] = None
        self._pos = 0
        self._blocks: OrderedDict[int, bytes] = OrderedDict()
        self._kept: Dict[int, bytes] = {}
        self.keep: Set[int] = set()
        self.decompressed = 0
        self.restarts = 0

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _next_block(self) -> bytes:
        assert self._stream is not None
        i = self._pos // BLOCK
        data = self._stream.read(BLOCK)
        if not data:
            raise BinaryFormatError("the member's data ends before its declared size")
        self._pos += len(data)
        self.decompressed += len(data)
        if i in self.keep and len(self._kept) < MAX_KEPT:
            self._kept[i] = data
        return data

    def block(self, i: int) -> bytes:
        """Block ``i`` (``BLOCK`` bytes from ``i * BLOCK``; shorter at the end)."""
        cached = self._kept.get(i) or self._blocks.get(i)
        if cached is not None:
            if i in self._blocks:
                self._blocks.move_to_end(i)
            return cached
        start = i * BLOCK
        if start >= self.size:
            return b""
        if start > MAX_OFFSET:
            raise BinaryFormatError(f"a header at offset {start:#x} lies past any real library's size")
        if self._stream is None or start < self._pos:
            self.close()
            if self._pos:
                self.restarts += 1
            self._stream, self._pos = self._zf.open(self._info), 0
        while self._pos < start:
            self._next_block()
        data = self._next_block()
        self._blocks[i] = data
        if len(self._blocks) > MAX_BLOCKS:
            self._blocks.popitem(last=False)
        return data

    def __getitem__(self, s: slice) -> bytes:
        start, stop = s.start or 0, min(s.stop, self.size)
        if start >= stop:
            return b""
        first, last = start // BLOCK, (stop - 1) // BLOCK
        data = b"".join(self.block(i) for i in range(first, last + 1))
        return data[start - first * BLOCK : stop - first * BLOCK]

    def find(self, sub: bytes, start: int, end: int) -> int:
        return find_in_chunks(self, sub, start, end, BLOCK)


def pe_directory_blocks(head: bytes) -> Set[int]:
    """The blocks of the sections that hold the export / import / resource / delay-import
    directories, from the section table in the head of a PE file (empty when the head
    does not hold what that takes): the names those directories point at live there too."""
    try:
        (lfanew,) = struct.unpack_from("<I", head, 0x3C)
        if head[lfanew:lfanew + 4] != b"PE\0\0":
            return set()
        nsects, opt_size = struct.unpack_from("<H12xH", head, lfanew + 6)
        opt = lfanew + 24
        (magic,) = struct.unpack_from("<H", head, opt)
        dirs_at = {0x10B: opt + 96, 0x20B: opt + 112}.get(magic)
        if dirs_at is None:
            return set()
        (ndirs,) = struct.unpack_from("<I", head, dirs_at - 4)
        rvas = [struct.unpack_from("<I", head, dirs_at + 8 * i)[0] for i in PE_DIRECTORIES if i < ndirs]
    except struct.error:
        return set()
    table = opt + opt_size
    count = max(0, min(nsects, (len(head) - table) // 40))  # the entries the head holds
    out: Set[int] = set()
    for i in range(count):
        vsize, vaddr, raw_size, raw_ptr = struct.unpack_from("<8xIIII", head, table + 40 * i)
        if any(vaddr <= rva < vaddr + max(vsize, raw_size) for rva in rvas if rva):
            first = raw_ptr // BLOCK
            out.update(range(first, min(first + MAX_KEPT, (raw_ptr + raw_size + BLOCK - 1) // BLOCK)))
    return out


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> BinaryInfo:
    """Headers of one member, decompressing only what they need (nothing is written)."""
    src = MemberSource(zf, info)
    try:
        return headers(src, info.filename)
    finally:
        src.close()


def headers(src: MemberSource, name: str) -> BinaryInfo:
    """Headers from a member source; the first block decides whether to read any further."""
    head = src[0:BLOCK]
    if not head.startswith(_MAGICS):
        raise BinaryFormatError("not an ELF, PE or Mach-O file" if head else "empty file")
    if head.startswith(b"MZ"):
        src.keep = pe_directory_blocks(head)
    return read_source(src, src.size, name)


def cache_root() -> Path:
    """The user cache folder (XDG_CACHE_HOME / LOCALAPPDATA), dldoctor's part of it."""
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or os.path.join("~", ".cache")
    return Path(os.path.expanduser(base)) / "dldoctor"


class HeaderCache:
    """BinaryInfo (or the reader's error) of each native member, per wheel."""

    def __init__(self, folder: Optional[Path] = None) -> None:
        self.folder = folder if folder is not None else cache_root() / "wheel-headers"

    def _file(self, wheel: str) -> Path:
        st = os.stat(wheel)
        return self.folder / f"{Path(wheel).name}-{st.st_size}-{int(st.st_mtime)}.json"

    def read(self, wheel: str, members: List[str]) -> Dict[str, Tuple[Optional[BinaryInfo], Optional[str]]]:
        """member name -> (headers, None) or (None, why unreadable); reads the zip only on a miss."""
        cached = self._load(wheel)
        missing = [m for m in members if m not in cached]
        if missing:
            cached.update(self._extract(wheel, missing))
            self._store(wheel, cached)
        out: Dict[str, Tuple[Optional[BinaryInfo], Optional[str]]] = {}
        for m in members:
            entry = cached[m]
            raw = entry.get("info")
            info = BinaryInfo.from_dict(raw) if isinstance(raw, dict) else None
            error = entry.get("error")
            out[m] = (info, str(error) if error is not None else None)
        return out

    def _load(self, wheel: str) -> Dict[str, Dict[str, Any]]:
        try:
            data = json.loads(self._file(wheel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        if not isinstance(data.get("members"), dict):
            return {}
        return dict(data["members"])

    def _store(self, wheel: str, members: Dict[str, Dict[str, Any]]) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self._file(wheel).with_suffix(".tmp")
            tmp.write_text(json.dumps({"version": CACHE_VERSION, "members": members}), encoding="utf-8")
            tmp.replace(self._file(wheel))
        except OSError:
            pass  # a cache that cannot be written only costs time

    def _extract(self, wheel: str, members: List[str]) -> Dict[str, Dict[str, Any]]:
        out: Dict[str, Dict[str, Any]] = {}
        with zipfile.ZipFile(wheel) as zf:
            for name in members:
                try:
                    info = read_member(zf, zf.getinfo(name))
                    out[name] = {"info": {**info.to_dict(), "path": name}}
                except (BinaryFormatError, OSError, KeyError, zipfile.BadZipFile, EOFError, zlib.error,
                        NotImplementedError, RuntimeError) as exc:
                    out[name] = {"error": str(exc) or type(exc).__name__}
        return out
