"""Field-by-field checks on small binaries built with gcc and x86_64-w64-mingw32-gcc."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict

import pytest
from _binary_oracles import diff, elf_readelf, ours, pe_objdump, pe_pefile

from dldoctor.binary import BinaryFormatError, BinaryInfo, read_binary, sniff_format


def _read(tiny: Dict[str, Path], name: str) -> BinaryInfo:
    return read_binary(str(tiny[name]))


def test_elf_library_with_rpath_and_versions(tiny: Dict[str, Path]) -> None:
    info = _read(tiny, "libtiny_rpath.so")
    assert (info.format, info.machine, info.bits, info.kind) == ("elf", "x86_64", 64, "shared")
    assert info.soname == "libtiny.so.3"
    assert info.needed == ("libdep.so.1",)
    assert info.rpath == ("$ORIGIN/a", "/opt/b", "/opt/c")
    assert info.runpath == ()
    assert sorted(info.version_needs) == [("libdep.so.1", "DEP_1.0"), ("libdep.so.1", "DEP_2.0")]


def test_elf_runpath_verdef_pie_and_object(tiny: Dict[str, Path]) -> None:
    assert _read(tiny, "libtiny_runpath.so").runpath == ("$ORIGIN/lib",)
    assert _read(tiny, "libtiny_runpath.so").rpath == ()
    dep = _read(tiny, "libdep.so.1")
    assert (dep.soname, dep.needed, dep.version_defs) == ("libdep.so.1", (), ("DEP_1.0", "DEP_2.0"))
    exe = _read(tiny, "tiny_exe")
    assert exe.kind == "executable" and exe.soname is None
    assert exe.needed[0] == "libtiny.so.3" and "libc.so.6" in exe.needed
    obj = _read(tiny, "tiny.o")
    assert (obj.kind, obj.needed) == ("object", ())


ELVES = ["libtiny_rpath.so", "libtiny_runpath.so", "libdep.so.1", "tiny_exe"]


@pytest.mark.parametrize("name", ELVES)
def test_elf_agrees_with_readelf(tiny: Dict[str, Path], name: str) -> None:
    theirs = elf_readelf(tiny[name])
    assert diff(ours(_read(tiny, name), theirs), theirs) == []


def test_pe_dll_export_name_and_version_resource(tiny: Dict[str, Path]) -> None:
    dep = _read(tiny, "dep.dll")
    assert (dep.format, dep.machine, dep.bits, dep.kind) == ("pe", "x86_64", 64, "shared")
    assert dep.soname == "depname.dll"  # the .def file's LIBRARY name, not the file name
    assert dep.file_version == "1.2.3.4"
    assert dep.needed == ("KERNEL32.dll", "msvcrt.dll")
    tiny_dll = _read(tiny, "tiny.dll")
    assert {"depname.dll", "delayed.dll", "KERNEL32.dll"} <= set(tiny_dll.needed)
    assert tiny_dll.file_version is None
    exe = _read(tiny, "tiny.exe")
    assert exe.kind == "executable" and "tiny.dll" in exe.needed and exe.soname is None


@pytest.mark.parametrize("name", ["dep.dll", "tiny.dll", "tiny.exe", "delayed.dll"])
def test_pe_agrees_with_pefile_and_objdump(tiny: Dict[str, Path], name: str) -> None:
    for theirs in (pe_pefile(tiny[name]), pe_objdump(tiny[name])):
        assert diff(ours(_read(tiny, name), theirs), theirs) == []


def test_to_dict_is_json_and_round_trips(tiny: Dict[str, Path]) -> None:
    for name in ("libtiny_rpath.so", "dep.dll"):
        info = _read(tiny, name)
        again = BinaryInfo.from_dict(json.loads(json.dumps(info.to_dict())))
        assert again == info


def test_from_dict_accepts_missing_optional_fields() -> None:
    d = {"path": "x", "format": "elf", "machine": "x86_64", "bits": 64, "kind": "shared"}
    info = BinaryInfo.from_dict({**d, "soname": None, "needed": ["a"]})
    assert info.needed == ("a",) and info.rpath == () and info.file_version is None


def test_sniff_format(tiny: Dict[str, Path], tmp_path: Path) -> None:
    assert sniff_format(str(tiny["libdep.so.1"])) == "elf"
    assert sniff_format(str(tiny["dep.dll"])) == "pe"
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert sniff_format(str(text)) is None
    assert sniff_format(str(tmp_path)) is None  # a folder is no binary
    java = tmp_path / "A.class"
    java.write_bytes(bytes.fromhex("cafebabe00000034") + b"\0" * 32)
    assert sniff_format(str(java)) is None  # FAT_MAGIC, but a Java class version


def _truncated(src: Path, dst: Path, size: int) -> str:
    dst.write_bytes(src.read_bytes()[:size])
    return str(dst)


@pytest.mark.parametrize("name", ["libtiny_rpath.so", "tiny.dll"])
def test_truncated_file_is_an_error_not_no_dependencies(
    tiny: Dict[str, Path], tmp_path: Path, name: str
) -> None:
    size = tiny[name].stat().st_size
    for cut in (size // 2, 200, 63, 4) if name.endswith(".so") else (size - 1, size // 2, 200, 63, 4):
        with pytest.raises(BinaryFormatError, match=r"outside the file|truncated"):
            read_binary(_truncated(tiny[name], tmp_path / name, cut))


def test_elf_cut_only_in_its_section_headers_reads_whole(tiny: Dict[str, Path], tmp_path: Path) -> None:
    """ld.so never reads section headers: a library missing only its tail loads (see
    tests/loader/test_truncated_ld_so.py), so it reads as the whole file does."""
    name = "libtiny_rpath.so"
    whole = read_binary(str(tiny[name]))
    cut = read_binary(_truncated(tiny[name], tmp_path / name, tiny[name].stat().st_size - 1))
    assert (cut.soname, cut.needed, cut.rpath, cut.version_needs) == (
        whole.soname, whole.needed, whole.rpath, whole.version_needs)


def test_unreadable_inputs_raise_one_line_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.so"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not a binary at all")
    for path, message in ((empty, "empty file"), (junk, "not an ELF, PE or Mach-O")):
        with pytest.raises(BinaryFormatError, match=message) as err:
            read_binary(str(path))
        assert "\n" not in str(err.value)
    with pytest.raises(FileNotFoundError):
        read_binary(str(tmp_path / "missing.so"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX-only")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.so"
    os.mkfifo(fifo)
    assert sniff_format(str(fifo)) is None
    # Opening a FIFO for reading would block until a writer comes; O_NONBLOCK
    # is not used, so read_binary must stat before it opens.
    with pytest.raises(BinaryFormatError, match="not a regular file"):
        read_binary(str(fifo))
