"""Agreement of dldoctor's header readers with independent readers on real binaries.

Corpus: every ELF file of a venv holding the torch CPU wheel, numpy and scipy;
foreign-machine ELF wheels (aarch64, big-endian s390x, ppc64le, armv7l, i686);
every DLL / .pyd of real win_amd64 and win32 wheels; every Mach-O of real
macOS arm64, x86_64 and universal2 wheels. Each test prints its agreement line
(files, names compared, mismatches) and fails on any mismatch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, List

import pytest
from _binary_oracles import (
    Facts,
    binaries,
    diff,
    elf_pyelftools,
    elf_readelf,
    macho_macholib,
    names,
    objdump_gap,
    ours,
    pe_objdump,
    pe_pefile,
)

from dldoctor.binary import read_binary

pytestmark = pytest.mark.slow

ELF_GROUPS = ["linux_aarch64", "linux_s390x", "linux_ppc64le", "linux_armv7l", "linux_i686"]
PE_GROUPS = ["win_amd64", "win32"]
MACHO_GROUPS = ["macos_arm64", "macos_x86_64", "macos_universal2"]


def _agree(label: str, files: List[Path], oracle: Callable[[Path], Facts]) -> None:
    assert files, f"{label}: no files in the corpus"
    compared = 0
    mismatches: List[str] = []
    for path in files:
        theirs = oracle(path)
        mine = ours(read_binary(str(path)), theirs)
        compared += names(theirs)
        mismatches += [f"{path.name}: {d}" for d in diff(mine, theirs)]
    print(f"\n{label}: {len(files)} files, {compared} names, {len(mismatches)} mismatches")
    assert not mismatches, "\n".join(mismatches[:20])


@pytest.fixture(scope="module")
def venv_elves(torch_venv: Path) -> List[Path]:
    files = binaries(torch_venv, "elf")
    assert len(files) > 100  # torch, numpy, scipy and their bundled libraries
    return files


def test_torch_venv_elf_vs_pyelftools(venv_elves: List[Path]) -> None:
    _agree("torch venv ELF vs pyelftools", venv_elves, elf_pyelftools)


def test_torch_venv_elf_vs_readelf(venv_elves: List[Path]) -> None:
    _agree("torch venv ELF vs readelf -d -V", venv_elves, elf_readelf)


def test_foreign_elf_vs_pyelftools_and_readelf(corpus: Dict[str, Path]) -> None:
    files = [p for g in ELF_GROUPS for p in binaries(corpus[g], "elf")]
    machines = {read_binary(str(p)).machine for p in files}
    assert {"aarch64", "s390x", "ppc64le", "arm", "x86"} <= machines
    _agree("foreign ELF vs pyelftools", files, elf_pyelftools)
    _agree("foreign ELF vs readelf -d -V", files, elf_readelf)


@pytest.fixture(scope="module")
def pe_files(corpus: Dict[str, Path]) -> List[Path]:
    return [p for g in PE_GROUPS for p in binaries(corpus[g], "pe")]


def test_pe_vs_pefile(pe_files: List[Path]) -> None:
    infos = [read_binary(str(p)) for p in pe_files]
    # The corpus must exercise what it claims to: PE32 and PE32+, delay
    # imports, export names and version resources.
    assert {i.bits for i in infos} == {32, 64}
    assert any(i.delay_needed for i in infos)
    assert any(i.file_version for i in infos)
    assert any(i.soname for i in infos)
    _agree("win wheels PE vs pefile", pe_files, pe_pefile)


def test_pe_vs_objdump(pe_files: List[Path]) -> None:
    compared = explained = 0
    mismatches: List[str] = []
    for path in pe_files:
        theirs = pe_objdump(path)
        mine = ours(read_binary(str(path)), theirs)
        compared += names(theirs)
        if objdump_gap(path, mine["needed"], theirs["needed"]):
            explained += 1
            mine["needed"] = theirs["needed"]
        mismatches += [f"{path.name}: {d}" for d in diff(mine, theirs)]
    print(
        f"\nwin wheels PE vs objdump -p: {len(pe_files)} files, {compared} names,"
        f" {len(mismatches)} mismatches, {explained} files where objdump stops early"
        " (DLL name outside the import section; pefile agrees with us)"
    )
    assert not mismatches, "\n".join(mismatches[:20])


def test_macho_every_slice_vs_macholib(corpus: Dict[str, Path]) -> None:
    files = [p for g in MACHO_GROUPS for p in binaries(corpus[g], "macho")]
    assert files
    slices = compared = 0
    mismatches: List[str] = []
    fat = 0
    for path in files:
        theirs = macho_macholib(path)
        first = read_binary(str(path))
        archs = first.archs or (first.machine,)
        fat += bool(first.archs)
        assert len(archs) == len(theirs)
        for arch, facts in zip(archs, theirs):
            mine = ours(read_binary(str(path), prefer_machine=arch), facts)
            slices += 1
            compared += names(facts)
            mismatches += [f"{path.name}[{arch}]: {d}" for d in diff(mine, facts)]
    assert fat, "the corpus holds no universal (fat) binary"
    print(
        f"\nmacOS wheels Mach-O vs macholib: {len(files)} files ({fat} fat), {slices} slices,"
        f" {compared} names, {len(mismatches)} mismatches"
    )
    assert not mismatches, "\n".join(mismatches[:20])
