"""Fuzzing the readers with truncated and mutated real binaries (hypothesis).

Two properties, for every format:
- a mutated file gives a BinaryInfo or a BinaryFormatError, nothing else
  (no IndexError, struct.error, MemoryError, hang);
- a truncated file gives a BinaryFormatError or exactly the original's
  dependency facts: truncation never reads as "no dependencies".
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest
from _binary_oracles import binaries
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dldoctor.binary import BinaryFormatError, BinaryInfo, read_binary

FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
DEPS = ("format", "soname", "needed", "delay_needed", "rpath", "runpath", "version_needs")
#: Mutations land in the first HEAD bytes half the time: that is where headers live.
HEAD = 16384


def _deps(info: BinaryInfo) -> Tuple[object, ...]:
    return tuple(getattr(info, f) for f in DEPS)


def _fuzz(data: bytes, scratch: Path) -> Tuple[Callable[..., None], Callable[..., None]]:
    """The two property tests for one real binary."""
    original = _deps(read_binary(_write(scratch, data)))

    @FUZZ
    @given(cut=st.integers(min_value=0, max_value=len(data) - 1))
    def truncation(cut: int) -> None:
        try:
            info = read_binary(_write(scratch, data[:cut]))
        except BinaryFormatError as e:
            assert "\n" not in str(e)
            return
        assert _deps(info) == original, f"cut at {cut} read as different dependencies"

    positions = st.one_of(st.integers(0, min(len(data), HEAD) - 1), st.integers(0, len(data) - 1))

    @FUZZ
    @given(edits=st.lists(st.tuples(positions, st.integers(0, 255)), min_size=1, max_size=8))
    def mutation(edits: List[Tuple[int, int]]) -> None:
        buf = bytearray(data)
        for pos, value in edits:
            buf[pos] = value
        try:
            info = read_binary(_write(scratch, bytes(buf)))
        except BinaryFormatError as e:
            assert "\n" not in str(e)
            return
        assert BinaryInfo.from_dict(json.loads(json.dumps(info.to_dict()))) == info

    return truncation, mutation


def _write(folder: Path, data: bytes) -> str:
    path = folder / "fuzzed.bin"
    path.write_bytes(data)
    return str(path)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.parametrize("name", ["libtiny_rpath.so", "tiny_exe", "dep.dll", "tiny.exe"])
def test_fuzz_built_binaries(tiny: Dict[str, Path], scratch: Path, name: str) -> None:
    truncation, mutation = _fuzz(tiny[name].read_bytes(), scratch)
    truncation()
    mutation()


def _smallest(folder: Path, fmt: str) -> Path:
    return min(binaries(folder, fmt), key=lambda p: p.stat().st_size)


def _lipo(slices: List[Tuple[int, bytes]]) -> bytes:
    """A fat Mach-O of real thin slices, laid out as ``lipo -create`` does."""
    align = 14
    header = struct.pack(">II", 0xCAFEBABE, len(slices))
    offset = 1 << align
    arches = b""
    body = b""
    for cputype, data in slices:
        arches += struct.pack(">iiIII", cputype, 0, offset + len(body), len(data), align)
        body += data + b"\0" * (-len(data) % (1 << align))
    return (header + arches).ljust(offset, b"\0") + body


@pytest.mark.slow
def test_fuzz_real_wheel_binaries(corpus: Dict[str, Path], scratch: Path) -> None:
    big_endian = _smallest(corpus["linux_s390x"], "elf")
    pe32 = _smallest(corpus["win32"], "pe")
    arm = _smallest(corpus["macos_arm64"], "macho").read_bytes()
    x86 = _smallest(corpus["macos_x86_64"], "macho").read_bytes()
    fat = _lipo([(0x0100000C, arm), (0x01000007, x86)])
    assert read_binary(_write(scratch, fat)).archs == ("aarch64", "x86_64")
    for data in (big_endian.read_bytes(), pe32.read_bytes(), arm, fat):
        truncation, mutation = _fuzz(data, scratch)
        truncation()
        mutation()
