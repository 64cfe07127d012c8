"""ELF (Linux) header reader: what ld.so reads, and nothing else.

The dynamic segment is found through the program headers (as ld.so finds
it, so stripped section headers do not matter), its string table through
DT_STRTAB mapped by the PT_LOAD segments. Every PT_LOAD segment must lie
inside the file: that is how a truncated library is told apart from one that
has no dependencies. The section header table is not required: ld.so never
reads it, and a library cut only there (its tail: section headers,
``.symtab``, ``.comment``) loads and runs (tests/loader checks both against
the real ld.so).

Counts come from the header and are capped by the format before anything is
read: program headers must have ld.so's entry size (``dl-load.c``: "ELF
file's phentsize not the expected size"; 56 bytes for ELF64, 32 for ELF32)
and there are at most 65,535 of them (PN_XNUM extended numbering only for
counts past that, which ld.so does not support); tables are walked one
record at a time, never read whole.
"""

from __future__ import annotations

import struct
from typing import Callable, Dict, Iterable, List, Set, Tuple

from ._record import BinaryFormatError, BinaryInfo
from ._view import View

MAGIC = b"\x7fELF"

PT_LOAD, PT_DYNAMIC = 1, 2
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ, DT_SONAME, DT_RPATH, DT_RUNPATH = 0, 1, 5, 10, 14, 15, 29
DT_FLAGS_1 = 0x6FFFFFFB
DT_VERDEF, DT_VERDEFNUM, DT_VERNEED, DT_VERNEEDNUM = 0x6FFFFFFC, 0x6FFFFFFD, 0x6FFFFFFE, 0x6FFFFFFF
DF_1_PIE = 0x08000000
VER_FLG_BASE = 0x1
PN_XNUM = 0xFFFF

NameFn = Callable[[int, str], str]

#: Loop caps: far above any real library, low enough that a hostile file is cheap.
MAX_DYN_ENTRIES = 1 << 16
MAX_VERSION_RECORDS = 1 << 16
#: e_phnum is 16 bits; PN_XNUM moves larger counts to section 0's sh_info.
MAX_PHNUM = 1 << 16

_MACHINES = {
    2: "sparc",
    3: "x86",
    8: "mips",
    20: "ppc",
    40: "arm",
    43: "sparcv9",
    62: "x86_64",
    183: "aarch64",
    258: "loongarch64",
}
_KINDS = {1: "object", 2: "executable", 3: "shared"}


class _Layout:
    """The struct formats of one ELF class and byte order."""

    def __init__(self, end: str, bits: int) -> None:
        wide = bits == 64
        self.ehdr = struct.Struct(end + ("HHIQQQIHHHHHH" if wide else "HHIIIIIHHHHHH"))
        # Normalised to (type, offset, vaddr, filesz) by _phdrs.
        self.phdr = struct.Struct(end + ("IIQQQQQQ" if wide else "IIIIIIII"))
        self.shdr = struct.Struct(end + ("IIQQQQIIQQ" if wide else "IIIIIIIIII"))
        self.dyn = struct.Struct(end + ("QQ" if wide else "II"))
        self.verneed = struct.Struct(end + "HHIII")
        self.vernaux = struct.Struct(end + "IHHII")
        self.verdef = struct.Struct(end + "HHHHIII")
        self.verdaux = struct.Struct(end + "II")
        self.wide = wide


_LAYOUTS = {(e, b): _Layout("<" if e == 1 else ">", b) for e in (1, 2) for b in (32, 64)}


def _machine(num: int, bits: int, little: bool) -> str:
    if num == 21:
        return "ppc64le" if little else "ppc64"
    if num == 22:
        return "s390x" if bits == 64 else "s390"
    if num == 243:
        return f"riscv{bits}"
    return _MACHINES.get(num) or f"unknown:{num}"


def read_elf(view: View, path: str) -> BinaryInfo:
    ident = view.read(0, 16, "ELF identification")
    if ident[:4] != MAGIC:
        raise BinaryFormatError("not an ELF file (bad magic)")
    cls, data = ident[4], ident[5]
    if cls not in (1, 2) or data not in (1, 2):
        raise BinaryFormatError(f"ELF class {cls} / data encoding {data} is not valid")
    bits = 32 if cls == 1 else 64
    lay = _LAYOUTS[(data, bits)]
    (
        e_type,
        e_machine,
        _ver,
        _entry,
        phoff,
        shoff,
        _flags,
        _ehsize,
        phentsize,
        phnum,
        shentsize,
        _shnum,
        _shstrndx,
    ) = view.unpack(lay.ehdr, 16, "ELF header")

    if shoff and phnum == PN_XNUM:  # extended numbering: the count is in section 0
        if shentsize < lay.shdr.size:
            raise BinaryFormatError(f"ELF section header size {shentsize} is too small")
        phnum = view.unpack(lay.shdr, shoff, "ELF section header 0")[7]
        if not PN_XNUM <= phnum <= MAX_PHNUM:
            raise BinaryFormatError(f"ELF extended program header count {phnum} is not valid")

    segments = _phdrs(view, lay, phoff, phnum, phentsize)
    loads = [s for s in segments if s[0] == PT_LOAD]
    dynamic = [s for s in segments if s[0] == PT_DYNAMIC]
    tags: Dict[int, int] = {}
    strs: Dict[int, List[int]] = {DT_NEEDED: [], DT_SONAME: [], DT_RPATH: [], DT_RUNPATH: []}
    if dynamic:
        _, off, _vaddr, filesz = dynamic[0]
        _read_dynamic(view, lay, off, filesz, tags, strs)

    needed: Tuple[str, ...] = ()
    soname: str | None = None
    rpath: Tuple[str, ...] = ()
    runpath: Tuple[str, ...] = ()
    vneeds: Tuple[Tuple[str, str], ...] = ()
    vdefs: Tuple[str, ...] = ()
    if any(strs.values()) or DT_VERNEED in tags or DT_VERDEF in tags:
        if DT_STRTAB not in tags:
            raise BinaryFormatError("ELF dynamic section has names but no DT_STRTAB")
        stroff, strend = _map(view, loads, tags[DT_STRTAB], "DT_STRTAB")
        if DT_STRSZ in tags:
            strend = min(strend, stroff + tags[DT_STRSZ])

        def name(i: int, what: str) -> str:
            return view.cstring(stroff + i, strend, what)

        needed = tuple(name(i, "DT_NEEDED") for i in strs[DT_NEEDED])
        if strs[DT_SONAME]:
            soname = name(strs[DT_SONAME][0], "DT_SONAME")
        rpath = _split(name(i, "DT_RPATH") for i in strs[DT_RPATH])
        runpath = _split(name(i, "DT_RUNPATH") for i in strs[DT_RUNPATH])
        if DT_VERNEED in tags:
            at, _ = _map(view, loads, tags[DT_VERNEED], "DT_VERNEED")
            vneeds = _verneed(view, lay, at, tags.get(DT_VERNEEDNUM), name)
        if DT_VERDEF in tags:
            at, _ = _map(view, loads, tags[DT_VERDEF], "DT_VERDEF")
            vdefs = _verdef(view, lay, at, tags.get(DT_VERDEFNUM), name)

    kind = _KINDS.get(e_type, "other")
    if kind == "shared" and tags.get(DT_FLAGS_1, 0) & DF_1_PIE:
        kind = "executable"
    return BinaryInfo(
        path=path,
        format="elf",
        machine=_machine(e_machine, bits, data == 1),
        bits=bits,
        kind=kind,
        soname=soname,
        needed=needed,
        rpath=rpath,
        runpath=runpath,
        version_needs=vneeds,
        version_defs=vdefs,
    )


def _phdrs(
    view: View, lay: _Layout, phoff: int, phnum: int, phentsize: int
) -> List[Tuple[int, int, int, int]]:
    """(type, offset, vaddr, filesz) of the PT_LOAD and PT_DYNAMIC headers, checked in-file.

    Read one entry at a time: the table is checked against the file, but a sparse file
    can be as large as a header claims."""
    if phnum == 0:
        return []
    if phentsize != lay.phdr.size:
        raise BinaryFormatError(
            f"ELF program header size {phentsize} is not {lay.phdr.size} (ld.so refuses the file)"
        )
    if phnum > MAX_PHNUM:
        raise BinaryFormatError(f"ELF header claims {phnum} program headers")
    view.check(phoff, phnum * phentsize, "ELF program header table")
    out = []
    for i in range(phnum):
        f = view.unpack(lay.phdr, phoff + i * phentsize, "ELF program header")
        if lay.wide:
            p_type, p_offset, p_vaddr, p_filesz = f[0], f[2], f[3], f[5]
        else:
            p_type, p_offset, p_vaddr, p_filesz = f[0], f[1], f[2], f[4]
        if p_type in (PT_LOAD, PT_DYNAMIC):
            label = "PT_LOAD segment" if p_type == PT_LOAD else "PT_DYNAMIC segment"
            view.check(p_offset, p_filesz, label)
            out.append((p_type, p_offset, p_vaddr, p_filesz))
    return out


def _read_dynamic(
    view: View,
    lay: _Layout,
    off: int,
    size: int,
    tags: Dict[int, int],
    strs: Dict[int, List[int]],
) -> None:
    """Walk the entries up to DT_NULL; a segment without one within the cap is hostile."""
    count = size // lay.dyn.size
    for i in range(min(count, MAX_DYN_ENTRIES)):
        tag, val = view.unpack(lay.dyn, off + i * lay.dyn.size, "ELF dynamic entry")
        if tag == DT_NULL:
            return
        if tag in strs:
            strs[tag].append(val)
        else:
            tags.setdefault(tag, val)
    if count > MAX_DYN_ENTRIES:
        raise BinaryFormatError(f"ELF dynamic segment has no DT_NULL in {MAX_DYN_ENTRIES} entries")


def _map(
    view: View, loads: List[Tuple[int, int, int, int]], addr: int, what: str
) -> Tuple[int, int]:
    """File offset of a virtual address, and the end of the segment's file image."""
    for _, off, vaddr, filesz in loads:
        if vaddr <= addr < vaddr + filesz:
            return off + (addr - vaddr), off + filesz
    raise BinaryFormatError(f"ELF {what} address {addr:#x} is not inside any loaded segment")


def _split(values: Iterable[str]) -> Tuple[str, ...]:
    return tuple(p for v in values for p in v.split(":") if p)


def _verneed(
    view: View, lay: _Layout, at: int, count: int | None, name: NameFn
) -> Tuple[Tuple[str, str], ...]:
    out: List[Tuple[str, str]] = []
    seen: Set[int] = set()
    remaining = MAX_VERSION_RECORDS if count is None else min(count, MAX_VERSION_RECORDS)
    while remaining > 0 and at not in seen:
        seen.add(at)
        remaining -= 1
        version, cnt, file_, aux, nxt = view.unpack(lay.verneed, at, "ELF Verneed record")
        if version != 1:
            raise BinaryFormatError(f"ELF Verneed record has unsupported version {version}")
        lib = name(file_, "Verneed file")
        a = at + aux
        for _ in range(min(cnt, MAX_VERSION_RECORDS - len(out))):
            _hash, _flags, _other, vname, anext = view.unpack(lay.vernaux, a, "ELF Vernaux")
            out.append((lib, name(vname, "Vernaux name")))
            if anext == 0:
                break
            a += anext
        if nxt == 0:
            break
        at += nxt
    return tuple(out)


def _verdef(view: View, lay: _Layout, at: int, count: int | None, name: NameFn) -> Tuple[str, ...]:
    """Version names defined, without the VER_FLG_BASE entry (that is the file's own name)."""
    out: List[str] = []
    seen: Set[int] = set()
    remaining = MAX_VERSION_RECORDS if count is None else min(count, MAX_VERSION_RECORDS)
    while remaining > 0 and at not in seen:
        seen.add(at)
        remaining -= 1
        version, flags, _ndx, cnt, _hash, aux, nxt = view.unpack(
            lay.verdef, at, "ELF Verdef record"
        )
        if version != 1:
            raise BinaryFormatError(f"ELF Verdef record has unsupported version {version}")
        if cnt and not flags & VER_FLG_BASE:
            (vname, _anext) = view.unpack(lay.verdaux, at + aux, "ELF Verdaux")
            out.append(name(vname, "Verdaux name"))
        if nxt == 0:
            break
        at += nxt
    return tuple(out)
