"""Read a native library's headers straight out of a wheel, without extracting the wheel.

A PE reader needs the headers plus the sections holding the import, delay-import and
resource directories; nothing else. So a member is written to a *sparse* temporary file of
its real size holding only those byte ranges (zeros elsewhere), and ``read_binary`` reads
that file as it would the installed one. Deflate streams cannot seek, so the member is
still decompressed up to its last needed byte, but never written out whole: a 250 MB
torch_cpu.dll costs a few MB of disk. Non-PE members (or PE files whose section table
cannot be parsed here) are written out whole, up to :data:`MAX_WHOLE` bytes.

Header facts are cached per wheel (file name + size + mtime) in the user cache folder, so a
second run over the same wheels reads no member data at all.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import IO, Any, Dict, List, Optional, Tuple

from dldoctor.binary import BinaryFormatError, BinaryInfo, read_binary

HEAD = 1 << 16
CHUNK = 1 << 20
MAX_WHOLE = 1 << 30
PE_DIRECTORIES = (0, 1, 2, 13)  # export (the DLL's own name), import, resource, delay import
CACHE_VERSION = 1


def pe_ranges(head: bytes, size: int) -> Optional[List[Tuple[int, int]]]:
    """File ranges holding the sections of the import / resource / delay-import directories.

    None when ``head`` is not a PE image this function understands (the caller then copies
    the whole member and lets ``read_binary`` judge it).
    """
    try:
        if head[:2] != b"MZ":
            return None
        (lfanew,) = struct.unpack_from("<I", head, 0x3C)
        if head[lfanew:lfanew + 4] != b"PE\0\0":
            return None
        coff = lfanew + 4
        nsects, opt_size = struct.unpack_from("<H12xH", head, coff + 2)
        opt = coff + 20
        (magic,) = struct.unpack_from("<H", head, opt)
        dirs_at = {0x10B: opt + 96, 0x20B: opt + 112}.get(magic)
        if dirs_at is None:
            return None
        (ndirs,) = struct.unpack_from("<I", head, dirs_at - 4)
        rvas = [struct.unpack_from("<I", head, dirs_at + 8 * i)[0] for i in PE_DIRECTORIES if i < ndirs]
        sections = [struct.unpack_from("<8xIIII", head, opt + opt_size + 40 * i) for i in range(nsects)]
    except struct.error:
        return None
    ranges = []
    for rva in (r for r in rvas if r):
        for vsize, vaddr, raw_size, raw_ptr in sections:
            if vaddr <= rva < vaddr + max(vsize, raw_size):
                ranges.append((raw_ptr, min(size, raw_ptr + raw_size)))
    return sorted(set(ranges))


def _skip(src: IO[bytes], n: int) -> None:
    while n > 0:
        got = len(src.read(min(CHUNK, n)))
        if got == 0:
            return
        n -= got


def _copy(src: IO[bytes], out: IO[bytes], n: int) -> None:
    while n > 0:
        block = src.read(min(CHUNK, n))
        if not block:
            return
        out.write(block)
        n -= len(block)


def materialize(zf: zipfile.ZipFile, info: zipfile.ZipInfo, dest: str, whole: bool = False) -> None:
    """Write ``dest``: the member's bytes where headers need them, a sparse hole elsewhere."""
    size = info.file_size
    with zf.open(info) as src, open(dest, "wb") as out:
        head = src.read(min(size, HEAD))
        ranges = pe_ranges(head, size)
        if whole or ranges is None or size <= 4 * HEAD:
            out.write(head)
            _copy(src, out, min(size, MAX_WHOLE) - len(head))
            return
        out.truncate(size)
        out.write(head)
        pos = len(head)
        for start, end in ranges:
            if end <= pos:
                continue
            start = max(start, pos)
            _skip(src, start - pos)
            out.seek(start)
            _copy(src, out, end - start)
            pos = end


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, dest: str) -> BinaryInfo:
    """Headers of one member, through a sparse copy when that is enough.

    delvewheel rewrites import names of the DLLs it mangles and may store the new strings
    outside the import section; they then read as empty names from the sparse copy, so an
    empty name (never a real one) sends the member through a whole copy instead."""
    materialize(zf, info, dest)
    got = read_binary(dest)
    if "" in got.needed or "" in got.delay_needed:
        materialize(zf, info, dest, whole=True)
        got = read_binary(dest)
    return got


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
        with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory(prefix="dldoctor-") as tmp:
            for i, name in enumerate(members):
                dest = os.path.join(tmp, f"{i}-{os.path.basename(name)}")
                try:
                    info = read_member(zf, zf.getinfo(name), dest)
                    out[name] = {"info": {**info.to_dict(), "path": name}}
                except (BinaryFormatError, OSError, KeyError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
                    out[name] = {"error": str(exc) or type(exc).__name__}
                finally:
                    if os.path.exists(dest):
                        os.unlink(dest)
        return out
