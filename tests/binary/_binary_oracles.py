"""The same facts as BinaryInfo, read by independent tools (the test oracles).

Each function returns a dict holding a subset of BinaryInfo's fields, in
BinaryInfo's vocabulary, so a comparison is a dict comparison. Shared by the
oracle tests and bench/bench_binary.py.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Tuple

from dldoctor.binary import BinaryInfo, sniff_format

Facts = Dict[str, Any]

_ELF_MACHINES = {
    "EM_X86_64": "x86_64",
    "EM_386": "x86",
    "EM_AARCH64": "aarch64",
    "EM_ARM": "arm",
    "EM_S390": "s390x",
    "EM_RISCV": "riscv64",
}
_ELF_KINDS = {"ET_DYN": "shared", "ET_EXEC": "executable", "ET_REL": "object"}


def binaries(root: Path, fmt: str) -> List[Path]:
    """Every regular (non-symlink) file of format ``fmt`` under ``root``, sorted."""
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink() and sniff_format(str(p)) == fmt:
            out.append(p)
    return out


def ours(info: BinaryInfo, fields: Iterable[str]) -> Facts:
    return {f: getattr(info, f) for f in fields}


def elf_pyelftools(path: Path) -> Facts:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.gnuversions import GNUVerDefSection, GNUVerNeedSection

    with open(path, "rb") as f:
        elf = ELFFile(f)
        machine = _ELF_MACHINES.get(elf["e_machine"], elf["e_machine"])
        if elf["e_machine"] == "EM_PPC64":
            machine = "ppc64le" if elf.little_endian else "ppc64"
        facts: Facts = {
            "machine": machine,
            "bits": elf.elfclass,
            "kind": _ELF_KINDS.get(elf["e_type"], "other"),
            "soname": None,
            "needed": (),
            "rpath": (),
            "runpath": (),
            "version_needs": (),
            "version_defs": (),
        }
        needed: List[str] = []
        rpath: List[str] = []
        runpath: List[str] = []
        for seg in elf.iter_segments():
            if seg["p_type"] != "PT_DYNAMIC":
                continue
            for tag in seg.iter_tags():
                t = tag.entry.d_tag
                if t == "DT_NEEDED":
                    needed.append(tag.needed)
                elif t == "DT_SONAME" and facts["soname"] is None:
                    facts["soname"] = tag.soname
                elif t == "DT_RPATH":
                    rpath.extend(p for p in tag.rpath.split(":") if p)
                elif t == "DT_RUNPATH":
                    runpath.extend(p for p in tag.runpath.split(":") if p)
                elif t == "DT_FLAGS_1" and tag.entry.d_val & 0x08000000:
                    facts["kind"] = "executable"
            break
        facts.update(needed=tuple(needed), rpath=tuple(rpath), runpath=tuple(runpath))
        vneeds: List[Tuple[str, str]] = []
        vdefs: List[str] = []
        for sec in elf.iter_sections():
            if isinstance(sec, GNUVerNeedSection):
                for verneed, auxes in sec.iter_versions():
                    vneeds.extend((verneed.name, aux.name) for aux in auxes)
            elif isinstance(sec, GNUVerDefSection):
                for verdef, auxes in sec.iter_versions():
                    first = next(iter(auxes))
                    if not verdef["vd_flags"] & 1:
                        vdefs.append(first.name)
        facts.update(version_needs=tuple(vneeds), version_defs=tuple(vdefs))
    return facts


_READELF_DYN = re.compile(r"\((NEEDED|SONAME|RPATH|RUNPATH)\)\s+[^\[]*\[(.*)\]\s*$")
_READELF_VERNEED_FILE = re.compile(r"^\s*(?:0x)?[0-9a-f]+: Version: \d+\s+File: (\S+)")
_READELF_VERNEED_NAME = re.compile(r"^\s*(?:0x)?[0-9a-f]+:\s+Name: (\S+)\s+Flags")
_READELF_VERDEF = re.compile(
    r"^\s*(?:0x)?[0-9a-f]+: Rev: \d+\s+Flags: (\S+)\s+Index: \d+\s+Cnt: \d+\s+Name: (\S+)"
)


def elf_readelf(path: Path) -> Facts:
    """``readelf -d -V -W``: the dynamic section and the symbol version sections."""
    out = subprocess.run(
        ["readelf", "-d", "-V", "-W", str(path)], capture_output=True, text=True, check=True
    ).stdout
    needed: List[str] = []
    soname = None
    rpath: List[str] = []
    runpath: List[str] = []
    vneeds: List[Tuple[str, str]] = []
    vdefs: List[str] = []
    lib = ""
    for line in out.splitlines():
        m = _READELF_DYN.search(line)
        if m:
            kind, value = m.groups()
            if kind == "NEEDED":
                needed.append(value)
            elif kind == "SONAME":
                soname = soname or value
            else:
                (rpath if kind == "RPATH" else runpath).extend(p for p in value.split(":") if p)
            continue
        m = _READELF_VERNEED_FILE.match(line)
        if m:
            lib = m.group(1)
            continue
        m = _READELF_VERNEED_NAME.match(line)
        if m:
            vneeds.append((lib, m.group(1)))
            continue
        m = _READELF_VERDEF.match(line)
        if m and "BASE" not in m.group(1):
            vdefs.append(m.group(2))
    return {
        "soname": soname,
        "needed": tuple(needed),
        "rpath": tuple(rpath),
        "runpath": tuple(runpath),
        "version_needs": tuple(vneeds),
        "version_defs": tuple(vdefs),
    }


_PE_MACHINES = {0x14C: "x86", 0x8664: "x86_64", 0xAA64: "aarch64"}


def pe_pefile(path: Path) -> Facts:
    import pefile

    pe = pefile.PE(str(path), fast_load=True)
    try:
        d = pefile.DIRECTORY_ENTRY
        pe.parse_data_directories(
            directories=[
                d["IMAGE_DIRECTORY_ENTRY_IMPORT"],
                d["IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT"],
                d["IMAGE_DIRECTORY_ENTRY_EXPORT"],
                d["IMAGE_DIRECTORY_ENTRY_RESOURCE"],
            ],
            import_dllnames_only=True,
        )
        chars = pe.FILE_HEADER.Characteristics
        exports = getattr(pe, "DIRECTORY_ENTRY_EXPORT", None)
        fixed = getattr(pe, "VS_FIXEDFILEINFO", None)
        version = None
        if fixed:
            ms, ls = fixed[0].FileVersionMS, fixed[0].FileVersionLS
            version = f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"
        return {
            "machine": _PE_MACHINES.get(pe.FILE_HEADER.Machine, pe.FILE_HEADER.Machine),
            "bits": 64 if pe.OPTIONAL_HEADER.Magic == 0x20B else 32,
            "kind": "shared" if chars & 0x2000 else "executable" if chars & 2 else "other",
            "soname": exports.name.decode() if exports and exports.name else None,
            "needed": tuple(e.dll.decode() for e in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])),
            "delay_needed": tuple(
                e.dll.decode() for e in getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", [])
            ),
            "file_version": version,
        }
    finally:
        pe.close()


def _objdump_lines(path: Path) -> Iterator[str]:
    """``objdump -p`` up to the export table (the function table after it is huge)."""
    proc = subprocess.Popen(
        ["x86_64-w64-mingw32-objdump", "-p", str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout
    try:
        for line in proc.stdout:
            if line.startswith(("The Function Table", "The .rsrc", "PE File Base Relocations")):
                break
            yield line
    finally:
        proc.kill()
        proc.stdout.close()
        proc.wait()


def objdump_gap(path: Path, ours_needed: Tuple[str, ...], theirs: Tuple[str, ...]) -> bool:
    """Whether objdump's import list stops short for binutils' known reason.

    objdump interprets the import table only within the section that holds
    it: a descriptor whose DLL name lies in another section (as in scipy's
    delvewheel-patched .pyd files) ends its listing. pefile and the Windows
    loader read on; this tells that case apart from a real disagreement.
    """
    import pefile

    if len(theirs) >= len(ours_needed) or ours_needed[: len(theirs)] != theirs:
        return False
    pe = pefile.PE(str(path), fast_load=True)
    try:
        rva = pe.OPTIONAL_HEADER.DATA_DIRECTORY[1].VirtualAddress
        home = pe.get_section_by_rva(rva)
        name_rva = pe.get_dword_at_rva(rva + 20 * len(theirs) + 12)
        return home is not None and pe.get_section_by_rva(name_rva) is not home
    finally:
        pe.close()


def pe_objdump(path: Path) -> Facts:
    needed: List[str] = []
    soname = None
    in_exports = False
    for line in _objdump_lines(path):
        if line.startswith("The Export Tables"):
            in_exports = True
        elif line.startswith("\tDLL Name: ") and not in_exports:
            needed.append(line.split(": ", 1)[1].strip())
        elif in_exports and line.startswith("Name "):
            soname = line.split()[-1]
    return {"soname": soname, "needed": tuple(needed)}


_MACHO_CPUS = {7: "x86", 0x01000007: "x86_64", 12: "arm", 0x0100000C: "aarch64"}
_MACHO_KINDS = {1: "object", 2: "executable", 6: "shared", 8: "shared"}


def macho_macholib(path: Path) -> List[Facts]:
    """One dict per slice, in file order."""
    from macholib import mach_o
    from macholib.MachO import MachO

    loads = {
        mach_o.LC_LOAD_DYLIB,
        mach_o.LC_LOAD_WEAK_DYLIB,
        mach_o.LC_REEXPORT_DYLIB,
        mach_o.LC_LOAD_UPWARD_DYLIB,
    }
    out = []
    for h in MachO(str(path)).headers:
        soname = None
        needed: List[str] = []
        rpath: List[str] = []
        for lc, _cmd, data in h.commands:
            name = data.split(b"\0", 1)[0].decode() if isinstance(data, bytes) else None
            if lc.cmd == mach_o.LC_ID_DYLIB:
                soname = soname or name
            elif lc.cmd in loads:
                needed.append(name or "")
            elif lc.cmd == mach_o.LC_RPATH:
                rpath.append(name or "")
        out.append(
            {
                "machine": _MACHO_CPUS.get(h.header.cputype, h.header.cputype),
                "bits": 64 if h.header.magic in (mach_o.MH_MAGIC_64, mach_o.MH_CIGAM_64) else 32,
                "kind": _MACHO_KINDS.get(h.header.filetype, "other"),
                "soname": soname,
                "needed": tuple(needed),
                "rpath": tuple(rpath),
            }
        )
    return out


def diff(ours_: Facts, theirs: Facts) -> List[str]:
    """One line per field that differs."""
    return [f"{k}: ours={ours_[k]!r} oracle={theirs[k]!r}" for k in theirs if ours_[k] != theirs[k]]


def names(facts: Facts) -> int:
    """How many names a comparison of ``facts`` covered (for the agreement report)."""
    n = 0
    for k, v in facts.items():
        if k in ("soname", "file_version"):
            n += v is not None
        elif isinstance(v, tuple):
            n += len(v)
    return n
