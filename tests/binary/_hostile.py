"""Builders of small, well-formed ELF / PE / Mach-O headers whose counts and sizes a test
then sets to anything: the hostile files of the binary-reader tests.

Each builder writes only the bytes it lays out and then extends the file with ``truncate``
to the size asked, so a file that claims terabytes costs no disk (a sparse file), exactly as
a hostile file on a user's disk would.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

PT_LOAD, PT_DYNAMIC = 1, 2
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ = 0, 1, 5, 10
DT_VERNEED, DT_VERNEEDNUM = 0x6FFFFFFE, 0x6FFFFFFF


def write_sparse(path: Path, chunks: Sequence[Tuple[int, bytes]], size: int) -> Path:
    """Write each (offset, data) chunk, then make the file ``size`` bytes long (sparse)."""
    with open(path, "wb") as f:
        for off, data in chunks:
            f.seek(off)
            f.write(data)
        f.truncate(max(size, f.tell()))
    return path


def elf64(
    path: Path,
    *,
    needed: Sequence[int] = (),
    strtab: bytes = b"\0libc.so.6\0",
    header: Optional[Dict[str, int]] = None,
    dynamic_filesz: Optional[int] = None,
    strsz: Optional[int] = None,
    sh0: Optional[Dict[str, int]] = None,
    verneed: Optional[Tuple[int, int, int]] = None,
    size: int = 0,
) -> Path:
    """A little-endian x86_64 shared object: PT_LOAD over the whole image, PT_DYNAMIC with
    one DT_NEEDED per string-table offset in ``needed``. ``header`` overrides e_* fields
    (phoff, shoff, phentsize, phnum, shentsize, shnum); ``sh0`` the size / info of section
    header 0 (extended numbering); ``verneed`` = (count, vn_cnt, vn_next) of a DT_VERNEED chain."""
    phoff, dyn_at = 64, 64 + 2 * 56
    dyn: List[Tuple[int, int]] = [(DT_NEEDED, i) for i in needed]
    str_at = dyn_at + (len(dyn) + 6) * 16
    vn_at = str_at + len(strtab)
    vn_at += -vn_at % 8
    dyn += [(DT_STRTAB, str_at), (DT_STRSZ, len(strtab) if strsz is None else strsz)]
    vn = b""
    if verneed is not None:
        count, cnt, nxt = verneed
        dyn += [(DT_VERNEED, vn_at), (DT_VERNEEDNUM, count)]
        # Verneed(version=1, cnt, file=1, aux=16, next) + one Vernaux(name=1, next=0)
        vn = struct.pack("<HHIII", 1, cnt, 1, 16, nxt) + struct.pack("<IHHII", 0, 0, 2, 1, 0)
    dyn.append((DT_NULL, 0))
    image_end = vn_at + len(vn)
    shoff = image_end + (-image_end % 8)
    h = {"phoff": phoff, "shoff": shoff, "phentsize": 56, "phnum": 2, "shentsize": 64, "shnum": 1}
    h.update(header or {})
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr = ident + struct.pack(
        "<HHIQQQIHHHHHH", 3, 62, 1, 0, h["phoff"], h["shoff"], 0, 64,
        h["phentsize"], h["phnum"], h["shentsize"], h["shnum"], 0,
    )
    dyn_bytes = b"".join(struct.pack("<QQ", t, v) for t, v in dyn)
    dyn_size = len(dyn_bytes) if dynamic_filesz is None else dynamic_filesz
    load = struct.pack("<IIQQQQQQ", PT_LOAD, 5, 0, 0, 0, image_end, image_end, 0x1000)
    dynamic = struct.pack("<IIQQQQQQ", PT_DYNAMIC, 6, dyn_at, dyn_at, dyn_at, dyn_size, dyn_size, 8)
    s0 = {"size": 0, "info": 0}
    s0.update(sh0 or {})
    shdr0 = struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, s0["size"], 0, s0["info"], 0, 0)
    chunks = [(0, ehdr), (phoff, load + dynamic), (dyn_at, dyn_bytes), (str_at, strtab), (vn_at, vn),
              (shoff, shdr0)]
    return write_sparse(path, chunks, max(size, shoff + 64))


IMAGE_FILE_DLL = 0x2000
_OPT_SIZE = 240  # PE32+ optional header with 16 data directories


def pe64(
    path: Path,
    *,
    nsections: int = 1,
    descriptors: int = 1,
    name_sections: Sequence[int] = (0,),
    nsections_field: Optional[int] = None,
    name: bytes = b"dep.dll",
    size: int = 0,
) -> Path:
    """An x86_64 DLL with ``nsections`` sections (section 0: 128 KiB, the others 4 KiB; raw
    data sparse), ``descriptors`` import descriptors in section 0, descriptor ``i`` naming a
    DLL whose name string lies in section ``name_sections[i % len(name_sections)]``."""
    lfanew = 0x40
    opt = lfanew + 24
    table = opt + _OPT_SIZE
    headers = table + 40 * nsections
    headers += -headers % 0x200
    first = 0x20000
    base = headers + (-headers % 0x1000)  # sections are mapped after the headers
    sec_size = lambda i: first if i == 0 else 0x1000  # noqa: E731
    sec_va = lambda i: base if i == 0 else base + first + 0x1000 * (i - 1)  # noqa: E731
    sec_raw = lambda i: headers + sec_va(i) - base  # noqa: E731
    import_rva = sec_va(0)
    chunks: List[Tuple[int, bytes]] = []
    descs = b""
    for i in range(descriptors):
        sec = name_sections[i % len(name_sections)]
        slot = first - 0x100 if sec == 0 else 0x10
        descs += struct.pack("<IIIII", 0, 0, 0, sec_va(sec) + slot, 0x1000)
    descs += bytes(20)
    if len(descs) > first - 0x100:
        raise ValueError("too many descriptors for one section")
    chunks.append((sec_raw(0), descs))
    for sec in set(name_sections):
        slot = first - 0x100 if sec == 0 else 0x10
        chunks.append((sec_raw(sec) + slot, name + b"\0"))
    coff = struct.pack(
        "<HHIIIHH", 0x8664, nsections if nsections_field is None else nsections_field, 0, 0, 0,
        _OPT_SIZE, 0x2022,
    )
    optional = bytearray(_OPT_SIZE)
    struct.pack_into("<H", optional, 0, 0x20B)
    struct.pack_into("<Q", optional, 24, 0x180000000)
    struct.pack_into("<I", optional, 60, headers)
    struct.pack_into("<I", optional, 108, 16)
    struct.pack_into("<II", optional, 112 + 8, import_rva, len(descs))
    sections = b"".join(
        struct.pack("<8sIIIIIIHHI", b".s", sec_size(i), sec_va(i), sec_size(i), sec_raw(i), 0, 0, 0, 0,
                    0x40000040)
        for i in range(nsections)
    )
    dos = bytearray(0x40)
    dos[:2] = b"MZ"
    struct.pack_into("<I", dos, 0x3C, lfanew)
    chunks[:0] = [(0, bytes(dos)), (lfanew, b"PE\0\0" + coff), (opt, bytes(optional)), (table, sections)]
    return write_sparse(path, chunks, max(size, sec_raw(nsections)))


LC_LOAD_DYLIB = 0xC


def macho64(
    path: Path,
    *,
    commands: int = 1,
    ncmds: Optional[int] = None,
    sizeofcmds: Optional[int] = None,
    name: bytes = b"@rpath/libdep.dylib",
    size: int = 0,
) -> Path:
    """A thin x86_64 dylib with ``commands`` LC_LOAD_DYLIB commands; ``ncmds`` and
    ``sizeofcmds`` override the header's claims."""
    body = name + b"\0"
    cmdsize = 24 + len(body) + (-(24 + len(body)) % 8)
    one = struct.pack("<II", LC_LOAD_DYLIB, cmdsize) + struct.pack("<IIII", 24, 0, 0, 0)
    one = (one + body).ljust(cmdsize, b"\0")
    cmds = one * commands
    header = struct.pack(
        "<IiiIIIII", 0xFEEDFACF, 0x01000007, 3, 6,
        commands if ncmds is None else ncmds, len(cmds) if sizeofcmds is None else sizeofcmds, 0, 0,
    )
    return write_sparse(path, [(0, header + cmds)], max(size, 32 + len(cmds)))
