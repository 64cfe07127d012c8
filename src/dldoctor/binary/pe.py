"""PE (Windows DLL / EXE / .pyd) header reader.

Reads the DLL names of the import and delay-import directories (never the
imported symbols: there is no symbol cap to silently truncate the list), the
export directory's own DLL name and the fixed part of the version resource.
Addresses are RVAs mapped to file offsets through the section table; every
section's raw data must lie inside the file, so a truncated DLL is an error
rather than a DLL "without imports". A damaged version resource does not
stop the Windows loader, so it only makes ``file_version`` None.
"""

from __future__ import annotations

import struct
from typing import List, Tuple

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
    """Section table plus RVA -> file offset mapping."""

    def __init__(self, view: View, sections: List[Section], header_size: int) -> None:
        self.view = view
        # (start, end, raw offset, raw size); the loader maps max(virtual, raw) bytes.
        self.spans = [(va, va + max(vs, rs), raw, rs) for va, vs, raw, rs in sections]
        self.header_size = min(header_size, view.size)

    def offset(self, rva: int, what: str) -> Tuple[int, int]:
        """File offset of ``rva`` and the end of the raw data holding it."""
        if 0 <= rva < self.header_size:
            return rva, self.header_size
        for start, end, raw, rawsize in self.spans:
            if start <= rva < end:
                delta = rva - start
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
    sections: List[Section] = []
    for i in range(nsections):
        f = view.unpack(_SECTION, table + i * _SECTION.size, "PE section header")
        vsize, va, rawsize, raw = f[1], f[2], f[3], f[4]
        if rawsize:
            view.check(raw, rawsize, f"PE section {_section_name(f[0])} raw data")
        sections.append((va, vsize, raw, rawsize))
    img = _Image(view, sections, header_size)

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
