"""PE (Windows DLL / EXE / .pyd) header reader.

Reads the DLL names of the import and delay-import directories (never the
imported symbols: there is no symbol cap to silently truncate the list), the
export directory's own DLL name and the fixed part of the version resource.
Addresses are RVAs mapped to file offsets through the section table; every
section's raw data must lie inside the file, so a truncated DLL is an error
rather than a DLL "without imports". A damaged version resource does not
stop the Windows loader, so it only makes ``file_version`` None.

Every count is capped before it drives a loop: the section count is 16 bits
and an RVA is mapped with one binary search over the sorted sections (see
:class:`_Image`), not a scan of up to 65,535 of them per name; descriptor and
resource loops stop at fixed caps; names count against the file's name
budget (``_view.MAX_NAME_BYTES``).
"""

from __future__ import annotations

import bisect
import struct
from array import array
from typing import Iterable, Iterator, List, Tuple

from ._record import BinaryFormatError, BinaryInfo
from ._view import View

_COFF = struct.Struct("<HHIIIHH")
_SECTION = struct.Struct("<8sIIIIIIHHI")
_DIR = struct.Struct("<II")
_IMPORT = struct.Struct("<IIIII")
_DELAY = struct.Struct("<IIIIIIII")
_EXPORT = struct.Struct("<IIHHIIIIIII")
_RES_DIR = struct.Struct("<IIHHHH")
_RES_DATA = struct.Struct("<IIII")
_VS_HEADER = struct.Struct("<HHH")
_VS_FIXED = struct.Struct("<IIIIII")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")

DIR_EXPORT, DIR_IMPORT, DIR_RESOURCE, DIR_DELAY_IMPORT = 0, 1, 2, 13
RT_VERSION = 16
VS_SIGNATURE = 0xFEEF04BD
IMAGE_FILE_EXECUTABLE_IMAGE, IMAGE_FILE_DLL = 0x0002, 0x2000

#: Loop caps far above real files (a big DLL imports ~50 DLLs).
MAX_DESCRIPTORS = 4096
MAX_RES_ENTRIES = 4096
MAX_NAME = 4096

_MACHINES = {
    0x14C: "x86",
    0x8664: "x86_64",
    0xAA64: "aarch64",
    0x1C0: "arm",
    0x1C4: "arm",
    0xA641: "arm64ec",
    0x200: "ia64",
}

Section = Tuple[int, int, int, int]  # virtual address, virtual size, raw offset, raw size


class _Image:
    """Section table plus RVA -> file offset mapping.

    Sections are kept sorted and disjoint (a section overlapping an earlier one starts
    where that one ends; real images never overlap) in flat arrays, so one binary search
    maps an RVA, however many sections a hostile header lists."""

    def __init__(self, view: View, sections: Iterable[Section], header_size: int) -> None:
        self.view = view
        self.starts, self.ends = array("Q"), array("Q")
        self.raws, self.rawsizes = array("Q"), array("Q")
        # The loader maps max(virtual, raw) bytes of each section.
        for va, vs, raw, rs in sorted(sections):
            end = va + max(vs, rs)
            floor = self.ends[-1] if self.ends else 0
            if end <= floor:
                continue
            if va < floor:
                raw, rs, va = raw + (floor - va), max(0, rs - (floor - va)), floor
            self.starts.append(va)
            self.ends.append(end)
            self.raws.append(raw)
            self.rawsizes.append(rs)
        self.header_size = min(header_size, view.size)

    def offset(self, rva: int, what: str) -> Tuple[int, int]:
        """File offset of ``rva`` and the end of the raw data holding it."""
        if 0 <= rva < self.header_size:
            return rva, self.header_size
        i = bisect.bisect_right(self.starts, rva) - 1
        if i >= 0 and rva < self.ends[i]:
            delta, raw, rawsize = rva - self.starts[i], self.raws[i], self.rawsizes[i]
            if delta >= rawsize:
                raise BinaryFormatError(f"PE {what} RVA {rva:#x} has no data in the file")
            return raw + delta, raw + rawsize
        raise BinaryFormatError(f"PE {what} RVA {rva:#x} is not inside any section")

    def unpack(self, st: struct.Struct, rva: int, what: str) -> Tuple[int, ...]:
        off, end = self.offset(rva, what)
        if off + st.size > end:
            raise BinaryFormatError(f"PE {what} at RVA {rva:#x} runs past its section")
        return self.view.unpack(st, off, f"PE {what}")

    def string(self, rva: int, what: str) -> str:
        off, end = self.offset(rva, what)
        return self.view.cstring(off, end, f"PE {what}", MAX_NAME)


def read_pe(view: View, path: str) -> BinaryInfo:
    if view.read(0, 2, "DOS header") != b"MZ":
        raise BinaryFormatError("not a PE file (no MZ header)")
    (lfanew,) = view.unpack(_U32, 0x3C, "DOS e_lfanew")
    if view.read(lfanew, 4, "PE signature") != b"PE\0\0":
        raise BinaryFormatError("MZ file without a PE signature (DOS program or corrupt)")
    machine, nsections, _ts, _sym, _nsym, opt_size, characteristics = view.unpack(
        _COFF, lfanew + 4, "COFF header"
    )
    opt = lfanew + 24
    view.check(opt, opt_size, "PE optional header")
    magic = _u16(view, opt)
    if magic == 0x10B:
        bits, ndir_at, dirs_at = 32, 92, 96
        (image_base,) = view.unpack(_U32, opt + 28, "ImageBase")
    elif magic == 0x20B:
        bits, ndir_at, dirs_at = 64, 108, 112
        (image_base,) = view.unpack(_U64, opt + 24, "ImageBase")
    else:
        raise BinaryFormatError(f"PE optional header magic {magic:#x} is not PE32 or PE32+")
    if opt_size < dirs_at:
        raise BinaryFormatError(f"PE optional header is too small ({opt_size} bytes)")
    (header_size,) = view.unpack(_U32, opt + 60, "SizeOfHeaders")
    (ndirs,) = view.unpack(_U32, opt + ndir_at, "NumberOfRvaAndSizes")
    ndirs = min(ndirs, (opt_size - dirs_at) // _DIR.size)

    def directory(i: int) -> Tuple[int, int]:
        if i >= ndirs:
            return 0, 0
        rva, size = view.unpack(_DIR, opt + dirs_at + i * _DIR.size, "PE data directory")
        return int(rva), int(size)

    table = opt + opt_size
    view.check(table, nsections * _SECTION.size, "PE section table")

    def sections() -> Iterator[Section]:
        for i in range(nsections):
            f = view.unpack(_SECTION, table + i * _SECTION.size, "PE section header")
            vsize, va, rawsize, raw = f[1], f[2], f[3], f[4]
            if rawsize:
                view.check(raw, rawsize, f"PE section {_section_name(f[0])} raw data")
            if max(vsize, rawsize):
                yield (va, vsize, raw, rawsize)

    img = _Image(view, sections(), header_size)

    exp_rva, _ = directory(DIR_EXPORT)
    soname: str | None = None
    if exp_rva:
        name_rva = img.unpack(_EXPORT, exp_rva, "export directory")[4]
        soname = img.string(name_rva, "export DLL name") if name_rva else None
    return BinaryInfo(
        path=path,
        format="pe",
        machine=_MACHINES.get(machine) or f"unknown:{machine}",
        bits=bits,
        kind=_kind(characteristics),
        soname=soname,
        needed=_imports(img, directory(DIR_IMPORT)[0]),
        delay_needed=_delay_imports(img, directory(DIR_DELAY_IMPORT)[0], image_base),
        file_version=_file_version(img, directory(DIR_RESOURCE)[0]),
    )


def _u16(view: View, off: int) -> int:
    raw = view.read(off, 2, "PE optional header magic")
    return raw[0] | raw[1] << 8


def _section_name(raw: bytes) -> str:
    return raw.rstrip(b"\0").decode("ascii", "replace")


def _kind(characteristics: int) -> str:
    if characteristics & IMAGE_FILE_DLL:
        return "shared"
    if characteristics & IMAGE_FILE_EXECUTABLE_IMAGE:
        return "executable"
    return "other"


def _imports(img: _Image, rva: int) -> Tuple[str, ...]:
    """DLL names of the import descriptors, up to the first without Name or FirstThunk.

    That is where the Windows loader stops walking the array too.
    """
    out: List[str] = []
    if not rva:
        return ()
    for i in range(MAX_DESCRIPTORS):
        _oft, _ts, _fwd, name, first_thunk = img.unpack(
            _IMPORT, rva + i * _IMPORT.size, "import descriptor"
        )
        if not name or not first_thunk:
            return tuple(out)
        out.append(img.string(name, "import DLL name"))
    raise BinaryFormatError(f"PE import directory has more than {MAX_DESCRIPTORS} entries")


def _delay_imports(img: _Image, rva: int, image_base: int) -> Tuple[str, ...]:
    out: List[str] = []
    if not rva:
        return ()
    for i in range(MAX_DESCRIPTORS):
        attrs, name = img.unpack(_DELAY, rva + i * _DELAY.size, "delay-import descriptor")[:2]
        if not name:
            return tuple(out)
        if not attrs & 1:  # pre-VC7 descriptors hold virtual addresses, not RVAs
            name -= image_base
        out.append(img.string(name, "delay-import DLL name"))
    raise BinaryFormatError(f"PE delay-import directory has more than {MAX_DESCRIPTORS} entries")


def _file_version(img: _Image, rva: int) -> str | None:
    """FileVersion of the first RT_VERSION resource, or None where absent or damaged."""
    if not rva:
        return None
    try:
        return _read_file_version(img, rva)
    except BinaryFormatError:
        return None


def _res_entries(img: _Image, root: int, off: int) -> List[Tuple[int, int]]:
    counts = img.unpack(_RES_DIR, root + off, "resource directory")
    n = counts[4] + counts[5]
    if n > MAX_RES_ENTRIES:
        raise BinaryFormatError("PE resource directory has too many entries")
    at = root + off + _RES_DIR.size
    return [img.unpack(_DIR, at + i * _DIR.size, "resource entry") for i in range(n)]  # type: ignore[misc]


def _read_file_version(img: _Image, root: int) -> str | None:
    subdir = 0x80000000
    types = [e for e in _res_entries(img, root, 0) if e[0] == RT_VERSION and e[1] & subdir]
    if not types:
        return None
    names = _res_entries(img, root, types[0][1] & ~subdir)
    if not names or not names[0][1] & subdir:
        return None
    langs = _res_entries(img, root, names[0][1] & ~subdir)
    if not langs or langs[0][1] & subdir:
        return None
    data_rva, size, _cp, _res = img.unpack(_RES_DATA, root + langs[0][1], "resource data entry")
    _length, value_len, _type = img.unpack(_VS_HEADER, data_rva, "VS_VERSIONINFO")
    key_len = len("VS_VERSION_INFO\0") * 2
    # Same alignment rule as the Windows resource compiler (and pefile): the
    # value starts on the next 32-bit boundary counted from the data's RVA.
    fixed = ((data_rva + _VS_HEADER.size + key_len + 3) & ~3) - (data_rva & ~3)
    if value_len < 52 or fixed + _VS_FIXED.size > size:
        return None
    sig, _struc, ms, ls, _pms, _pls = img.unpack(_VS_FIXED, data_rva + fixed, "VS_FIXEDFILEINFO")
    if sig != VS_SIGNATURE:
        return None
    return f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"
