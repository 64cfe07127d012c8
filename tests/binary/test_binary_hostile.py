"""Hostile headers: counts and sizes that claim gigabytes, in sparse files that cost nothing.

The readers must answer a BinaryInfo or a one-line BinaryFormatError with bounded memory
(tracemalloc peak) and bounded work (the number of reads through ``View``, a step count
that does not depend on the machine's speed), whatever a header claims. The files are real
ELF / PE / Mach-O layouts (``_hostile``) that pyelftools, pefile and macholib read as the
readers do before the claims are changed.
"""

from __future__ import annotations

import contextlib
import struct
import tracemalloc
from pathlib import Path
from typing import Any, Callable, Iterator, List, Tuple

from _hostile import elf64, macho64, pe64, write_sparse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dldoctor.binary import BinaryFormatError, BinaryInfo, _view, read_binary
from dldoctor.binary.macho import MAX_SIZEOFCMDS

#: What any one file may cost: far above a real library (~50 reads, a few KB).
MAX_PEAK = 16 << 20
MAX_STEPS = 600_000
GB = 1 << 30

HOSTILE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@contextlib.contextmanager
def counted_reads() -> Iterator[List[int]]:
    """Count every access the readers make through View (their only way to the file)."""
    count = [0]
    originals = {name: getattr(_view.View, name) for name in ("read", "unpack", "cstring", "check")}

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any, **kw: Any) -> Any:
            count[0] += 1
            return fn(*args, **kw)

        return counting

    for name, fn in originals.items():
        setattr(_view.View, name, wrap(fn))
    try:
        yield count
    finally:
        for name, fn in originals.items():
            setattr(_view.View, name, fn)


def bounded_read(path: Path) -> Tuple[BinaryInfo | None, str]:
    """Read ``path`` and assert the cost bounds; (info, "") or (None, error message)."""
    tracemalloc.start()
    try:
        with counted_reads() as steps:
            try:
                info: BinaryInfo | None = read_binary(str(path))
                error = ""
            except BinaryFormatError as exc:
                info, error = None, str(exc)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MAX_PEAK, f"{path.name}: {peak} bytes allocated"
    assert steps[0] < MAX_STEPS, f"{path.name}: {steps[0]} reads"
    assert "\n" not in error
    return info, error


# ---------------------------------------------------------------- the reported cases

def test_elf_phentsize_times_phnum_claiming_4_gb(tmp_path: Path) -> None:
    """e_phentsize 65535 x e_phnum 65534 in a 4.3 GB sparse file: read at once, that
    allocated 8.4 GB; ld.so refuses any phentsize but sizeof(Elf64_Phdr)."""
    path = elf64(tmp_path / "ph.so", header={"phentsize": 65535, "phnum": 65534}, size=65535 * 65534 + 4096)
    info, error = bounded_read(path)
    assert info is None and "program header size 65535 is not 56" in error


def test_elf_extended_program_header_count(tmp_path: Path) -> None:
    """PN_XNUM moves the count to section 0's sh_info: 4 G entries in a 240 GB sparse file."""
    path = elf64(tmp_path / "xnum.so", header={"phnum": 0xFFFF}, sh0={"info": 0xFFFFFFFF}, size=56 << 32)
    info, error = bounded_read(path)
    assert info is None and "extended program header count" in error
    # A count below PN_XNUM there is not extended numbering: never "no program headers".
    path = elf64(tmp_path / "xnum0.so", header={"phnum": 0xFFFF}, sh0={"info": 0})
    assert bounded_read(path)[0] is None


def test_elf_names_cannot_multiply(tmp_path: Path) -> None:
    """65,000 DT_NEEDED entries naming one 60,000-byte string: 3.9 GB of names (the
    unpatched reader took 23 GB and 28 s); the file's name budget stops it at 1 MiB."""
    path = elf64(tmp_path / "names.so", needed=[1] * 65000, strtab=b"\0" + b"n" * 60000 + b"\0")
    info, error = bounded_read(path)
    assert info is None and "names exceed" in error


def test_elf_dynamic_segment_claiming_a_terabyte(tmp_path: Path) -> None:
    """A PT_DYNAMIC of 1 TB in a 1 TB sparse file: walked entry by entry up to DT_NULL."""
    path = elf64(tmp_path / "dyn.so", needed=[1], dynamic_filesz=1 << 40, size=(1 << 40) + 4096)
    info, _ = bounded_read(path)
    assert info is not None and info.needed == ("libc.so.6",)
    # The same segment of zeros (no DT_NULL where the entries are) is hostile, not empty.
    path = elf64(tmp_path / "dyn0.so", needed=[1] * 70000, dynamic_filesz=1 << 40, size=(1 << 40) + 4096)
    info, error = bounded_read(path)
    assert info is None and "no DT_NULL" in error


def test_macho_ten_million_load_commands(tmp_path: Path) -> None:
    """ncmds 10,000,000 (the unpatched reader walked them for 12 s): dyld's own rule caps
    sizeofcmds long before that."""
    path = macho64(tmp_path / "many.dylib", ncmds=10_000_000, sizeofcmds=80_000_000, size=80_000_032)
    info, error = bounded_read(path)
    assert info is None and "load commands claim 80000000 bytes" in error
    path = macho64(tmp_path / "more.dylib", ncmds=10_000_000)
    assert "commands in" in bounded_read(path)[1]


def test_macho_at_the_cap_is_cheap(tmp_path: Path) -> None:
    """The most commands the cap lets through (1 MiB of 8-byte commands) stay cheap."""
    n = MAX_SIZEOFCMDS // 8
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x01000007, 3, 6, n, n * 8, 0, 0)
    path = write_sparse(tmp_path / "cap.dylib", [(0, header + struct.pack("<II", 0x2A, 8) * n)], 0)
    info, _ = bounded_read(path)
    assert info is not None and info.needed == ()


def test_pe_65535_sections_and_4095_imports(tmp_path: Path) -> None:
    """Each import name in the last of 65,535 sections: mapping an RVA by scanning the
    section table made that 268 M steps (6.5 s); one binary search per RVA now."""
    path = pe64(tmp_path / "sections.dll", nsections=65535, descriptors=4095, name_sections=(65534,))
    info, _ = bounded_read(path)
    assert info is not None and info.needed == ("dep.dll",) * 4095


def test_pe_section_count_past_the_table(tmp_path: Path) -> None:
    """A section count claiming more headers than the file holds is an error, not a hang."""
    path = pe64(tmp_path / "count.dll", nsections=2, nsections_field=0xFFFF)
    assert bounded_read(path)[0] is None


# ---------------------------------------------------------------- any claim at all

@HOSTILE
@given(
    phnum=st.one_of(st.just(2), st.integers(0, 0xFFFF)),
    phentsize=st.one_of(st.just(56), st.integers(0, 0xFFFF)),
    shnum=st.integers(0, 0xFFFF),
    shentsize=st.one_of(st.just(64), st.integers(0, 0xFFFF)),
    shoff=st.one_of(st.just(None), st.integers(0, 1 << 40)),
    sh0=st.tuples(st.integers(0, (1 << 32) - 1), st.integers(0, (1 << 32) - 1)),
    dynamic_filesz=st.one_of(st.none(), st.integers(0, 1 << 40)),
    strsz=st.one_of(st.none(), st.integers(0, 1 << 40)),
    needed=st.integers(0, 70000),
    name_len=st.integers(0, 70000),
    verneed=st.one_of(st.none(), st.tuples(st.integers(0, (1 << 32) - 1), st.integers(0, 0xFFFF),
                                            st.integers(0, (1 << 32) - 1))),
    size=st.integers(0, 1 << 40),
)
def test_elf_any_header_claims(
    tmp_path: Path, phnum: int, phentsize: int, shnum: int, shentsize: int, shoff: int | None,
    sh0: Tuple[int, int], dynamic_filesz: int | None, strsz: int | None, needed: int, name_len: int,
    verneed: Tuple[int, int, int] | None, size: int,
) -> None:
    header = {"phnum": phnum, "phentsize": phentsize, "shnum": shnum, "shentsize": shentsize}
    if shoff is not None:
        header["shoff"] = shoff
    path = elf64(
        tmp_path / "any.so", needed=[1] * needed, strtab=b"\0" + b"n" * name_len + b"\0", header=header,
        dynamic_filesz=dynamic_filesz, strsz=strsz, sh0={"size": sh0[0], "info": sh0[1]},
        verneed=verneed, size=size,
    )
    bounded_read(path)


@HOSTILE
@given(
    nsections=st.integers(1, 4096),
    nsections_field=st.one_of(st.none(), st.integers(0, 0xFFFF)),
    descriptors=st.integers(0, 4200),
    name_sections=st.lists(st.integers(0, 4095), min_size=1, max_size=8),
    size=st.integers(0, 1 << 40),
)
def test_pe_any_header_claims(
    tmp_path: Path, nsections: int, nsections_field: int | None, descriptors: int,
    name_sections: List[int], size: int,
) -> None:
    secs = [s % nsections for s in name_sections]
    path = pe64(tmp_path / "any.dll", nsections=nsections, nsections_field=nsections_field,
                descriptors=descriptors, name_sections=secs, size=size)
    bounded_read(path)


@HOSTILE
@given(
    commands=st.integers(0, 2000),
    ncmds=st.one_of(st.none(), st.integers(0, (1 << 32) - 1)),
    sizeofcmds=st.one_of(st.none(), st.integers(0, (1 << 32) - 1)),
    size=st.integers(0, 1 << 40),
)
def test_macho_any_header_claims(
    tmp_path: Path, commands: int, ncmds: int | None, sizeofcmds: int | None, size: int
) -> None:
    path = macho64(tmp_path / "any.dylib", commands=commands, ncmds=ncmds, sizeofcmds=sizeofcmds, size=size)
    bounded_read(path)


def test_builders_are_what_the_oracles_read(tmp_path: Path) -> None:
    """The hostile files start from layouts the independent readers agree on."""
    from elftools.elf.elffile import ELFFile

    elf = elf64(tmp_path / "ok.so", needed=[1, 1])
    with open(elf, "rb") as f:
        theirs = [t.needed for s in ELFFile(f).iter_segments() if s["p_type"] == "PT_DYNAMIC"
                  for t in s.iter_tags() if t.entry.d_tag == "DT_NEEDED"]
    assert read_binary(str(elf)).needed == tuple(theirs) == ("libc.so.6", "libc.so.6")

    import pefile

    dll = pe64(tmp_path / "ok.dll", nsections=3, descriptors=3, name_sections=(0, 2))
    pe = pefile.PE(str(dll), fast_load=True)
    pe.parse_data_directories(directories=[1], import_dllnames_only=True)
    assert read_binary(str(dll)).needed == tuple(e.dll.decode() for e in pe.DIRECTORY_ENTRY_IMPORT)

    from macholib.MachO import MachO

    dylib = macho64(tmp_path / "ok.dylib", commands=2)
    names = [c[2].rstrip(b"\0").decode() for c in MachO(str(dylib)).headers[0].commands]
    assert read_binary(str(dylib)).needed == tuple(names)
