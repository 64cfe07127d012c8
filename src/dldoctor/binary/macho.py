"""Mach-O (macOS) header reader: thin 32/64-bit files and fat (universal) files.

Only the load commands are read: the install name (LC_ID_DYLIB), the
dylibs to load in order, and LC_RPATH. Every segment's file range must lie
inside its slice, so a truncated dylib is an error rather than a dylib
without dependencies. A fat file reports every slice's machine in ``archs``
and describes the slice dyld would pick on this host (else the first).

The load commands are bounded before they are walked: ``sizeofcmds`` must fit
the file and :data:`MAX_SIZEOFCMDS`, and ``ncmds`` must fit ``sizeofcmds``
at 8 bytes a command (dyld's own rules: ``ImageLoaderMachO::sniffLoadCommands``
rejects more than 32 KiB of load commands and ncmds > sizeofcmds / 8).
"""

from __future__ import annotations

import struct
from typing import List, Tuple

from ._record import BinaryFormatError, BinaryInfo
from ._view import View

MH_MAGIC, MH_MAGIC_64 = 0xFEEDFACE, 0xFEEDFACF
FAT_MAGIC, FAT_MAGIC_64 = 0xCAFEBABE, 0xCAFEBABF
#: Java class files share FAT_MAGIC; their next word (a version) is >= 45.
MAX_FAT_ARCHS = 30
#: dyld 2 refused load commands past 32 KiB (real dylibs: a few KB); newer dyld is
#: laxer, so the cap is 32 times that, still at most 131,072 commands to walk.
MAX_SIZEOFCMDS = 1 << 20

LC_SEGMENT, LC_SEGMENT_64 = 0x1, 0x19
LC_LOAD_DYLIB, LC_ID_DYLIB = 0xC, 0xD
LC_LOAD_WEAK_DYLIB, LC_RPATH = 0x80000018, 0x8000001C
LC_REEXPORT_DYLIB, LC_LOAD_UPWARD_DYLIB = 0x8000001F, 0x80000023
_LOADS = (LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LOAD_UPWARD_DYLIB)

CPU_ARCH_ABI64, CPU_ARCH_ABI64_32 = 0x01000000, 0x02000000
_CPUS = {
    7: "x86",
    7 | CPU_ARCH_ABI64: "x86_64",
    12: "arm",
    12 | CPU_ARCH_ABI64: "aarch64",
    12 | CPU_ARCH_ABI64_32: "arm64_32",
    18: "ppc",
    18 | CPU_ARCH_ABI64: "ppc64",
}
_KINDS = {1: "object", 2: "executable", 6: "shared", 8: "shared", 9: "shared"}

_U32BE = struct.Struct(">I")
_FAT_ARCH = struct.Struct(">iiIII")
_FAT_ARCH_64 = struct.Struct(">iiQQII")
_SEG32_RANGE = "II"  # fileoff, filesize at offset 32 of segment_command
_SEG64_RANGE = "QQ"  # fileoff, filesize at offset 40 of segment_command_64


def cpu_name(cputype: int) -> str:
    return _CPUS.get(cputype & 0xFFFFFFFF) or f"unknown:{cputype & 0xFFFFFFFF}"


def host_machine() -> str:
    """This host's machine in BinaryInfo's vocabulary (``arm64`` -> ``aarch64``)."""
    import platform  # only for fat files: keeps `deps` start-up small

    m = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64", "i386": "x86", "i686": "x86"}.get(m, m)


def is_fat(head: bytes) -> bool:
    """FAT_MAGIC(_64) with a plausible slice count (not a Java class file)."""
    if len(head) < 8:
        return False
    magic, n = struct.unpack(">II", head[:8])
    return magic in (FAT_MAGIC, FAT_MAGIC_64) and 0 < n <= MAX_FAT_ARCHS


def read_macho(view: View, path: str, prefer: str | None = None) -> BinaryInfo:
    """Read a thin or fat Mach-O; for fat files, the slice for ``prefer`` (default: host)."""
    head = view.read(0, 8, "Mach-O header")
    if not is_fat(head):
        return _read_thin(view, path, ())
    slices = fat_slices(view)
    archs = tuple(cpu_name(cpu) for cpu, _, _ in slices)
    want = prefer or host_machine()
    pick = archs.index(want) if want in archs else 0
    _, off, size = slices[pick]
    return _read_thin(view.sub(off, size, "Mach-O fat slice"), path, archs)


def fat_slices(view: View) -> List[Tuple[int, int, int]]:
    """(cputype, offset, size) of each slice of a fat file, each checked in-file."""
    magic, n = struct.unpack(">II", view.read(0, 8, "Mach-O fat header"))
    st = _FAT_ARCH_64 if magic == FAT_MAGIC_64 else _FAT_ARCH
    out = []
    for i in range(n):
        f = view.unpack(st, 8 + i * st.size, "Mach-O fat_arch")
        cpu, off, size = f[0], f[2], f[3]
        view.check(off, size, f"Mach-O fat slice {i}")
        out.append((cpu, off, size))
    return out


def _read_thin(view: View, path: str, archs: Tuple[str, ...]) -> BinaryInfo:
    raw = view.read(0, 4, "Mach-O header")
    for end in ("<", ">"):
        (magic,) = struct.unpack(end + "I", raw)
        if magic in (MH_MAGIC, MH_MAGIC_64):
            break
    else:
        raise BinaryFormatError("not a Mach-O file (bad magic)")
    wide = magic == MH_MAGIC_64
    _, cputype, _sub, filetype, ncmds, sizeofcmds, _flags = view.unpack(
        struct.Struct(end + "IiiIIII"), 0, "Mach-O header"
    )
    at = 32 if wide else 28
    if sizeofcmds > MAX_SIZEOFCMDS:
        raise BinaryFormatError(f"Mach-O load commands claim {sizeofcmds} bytes")
    view.check(at, sizeofcmds, "Mach-O load commands")
    if ncmds > sizeofcmds // 8:
        raise BinaryFormatError(f"Mach-O header claims {ncmds} commands in {sizeofcmds} bytes")
    cmd_head = struct.Struct(end + "II")
    seg = struct.Struct(end + (_SEG64_RANGE if wide else _SEG32_RANGE))
    seg_at = 40 if wide else 32
    u32 = struct.Struct(end + "I")
    limit = at + sizeofcmds
    soname: str | None = None
    needed: List[str] = []
    rpath: List[str] = []
    for _ in range(ncmds):
        cmd, size = view.unpack(cmd_head, at, "Mach-O load command")
        if size < 8 or at + size > limit:
            raise BinaryFormatError(f"Mach-O load command {cmd:#x} has bad size {size}")
        if cmd in (LC_SEGMENT, LC_SEGMENT_64):
            if at + seg_at + seg.size > at + size:
                raise BinaryFormatError("Mach-O segment command is too small")
            fileoff, filesize = view.unpack(seg, at + seg_at, "Mach-O segment")
            view.check(fileoff, filesize, "Mach-O segment data")
        elif cmd in _LOADS or cmd in (LC_ID_DYLIB, LC_RPATH):
            (name_off,) = view.unpack(u32, at + 8, "Mach-O load command string")
            if name_off < 12 or name_off >= size:
                raise BinaryFormatError(f"Mach-O load command {cmd:#x} string lies outside it")
            name = view.cstring(at + name_off, at + size, "Mach-O load command string")
            if cmd == LC_ID_DYLIB:
                soname = soname or name
            elif cmd == LC_RPATH:
                rpath.append(name)
            else:
                needed.append(name)
        at += size
    return BinaryInfo(
        path=path,
        format="macho",
        machine=cpu_name(cputype),
        bits=64 if wide else 32,
        kind=_KINDS.get(filetype, "other"),
        soname=soname,
        needed=tuple(needed),
        rpath=tuple(rpath),
        archs=archs,
    )
