"""Wheel members are read as far as their headers need, never extracted.

A 3 MB wheel of huge zero-filled ``.dll`` members made ``wheels`` write each one out whole
(1 GiB each) although its first bytes show it is no binary. Now the first block decides,
a real DLL is inflated once up to its last directory, and nothing is written to disk. The
costs are counted by the member source itself (bytes inflated, restarts) and by the kernel
(blocks written by the CLI), not by a clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from dldoctor.binary import BinaryFormatError, read_binary
from dldoctor.wheelset.extract import BLOCK, MemberSource, headers
from dldoctor.wheelset.wheel import MAX_MEMBERS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "binary"))
from _hostile import pe64

ZEROS = 256 << 20  # per member: 768 MB written by the old reader for three of them
WHEEL = "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp311-cp311-win_amd64\n"


def make_wheel(path: Path, members: Dict[str, object]) -> Path:
    """A wheel whose members are bytes, or an int: that many zero bytes, streamed."""
    name, version = path.name.split("-")[:2]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        zf.writestr(f"{name}-{version}.dist-info/METADATA", meta)
        zf.writestr(f"{name}-{version}.dist-info/WHEEL", WHEEL)
        for member, data in members.items():
            if isinstance(data, int):
                with zf.open(member, "w", force_zip64=True) as fh:
                    for _ in range(data >> 20):
                        fh.write(bytes(1 << 20))
            else:
                assert isinstance(data, bytes)
                zf.writestr(member, data)
        zf.writestr(f"{name}-{version}.dist-info/RECORD", "")
    return path


def read(whl: Path, member: str) -> Tuple[object, MemberSource]:
    with zipfile.ZipFile(whl) as zf:
        src = MemberSource(zf, zf.getinfo(member))
        try:
            return headers(src, member), src
        except BinaryFormatError as exc:
            return str(exc), src
        finally:
            src.close()


def cli_cost(tmp_path: Path, *args: str) -> Tuple[int, int, Dict[str, object]]:
    """(exit status, blocks the CLI wrote, JSON report) of `dldoctor wheels` with an empty cache."""
    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, "
               "text=True); print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_oublock); "
               "print(done.stdout or done.stderr)")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "dldoctor", "wheels", "--format",
                          "json", *args], capture_output=True, text=True, env=env, check=True).stdout
    first, rest = out.split("\n", 1)
    status, blocks = map(int, first.split())
    return status, blocks, json.loads(rest) if status in (0, 1) else {"stderr": rest}


def test_zero_members_stop_at_their_first_block(tmp_path: Path) -> None:
    whl = make_wheel(tmp_path / "zeros-1.0-cp311-cp311-win_amd64.whl",
                     {f"zeros/z{i}.dll": ZEROS for i in range(3)})
    assert whl.stat().st_size < 1 << 20  # a few hundred KB of deflated zeros
    for i in range(3):
        got, src = read(whl, f"zeros/z{i}.dll")
        assert got == "not an ELF, PE or Mach-O file"
        assert src.decompressed <= BLOCK and src.restarts == 0
    status, written, report = cli_cost(tmp_path, str(whl))
    assert status == 0, report
    assert written < 2048, written  # the header cache (a few KB), not 768 MB of members
    msgs = sorted(f["message"] for f in report["findings"] if f["slug"] == "corrupt-install")  # type: ignore[union-attr]
    assert msgs == [f"zeros\\z{i}.dll: not a loadable DLL (not an ELF, PE or Mach-O file)" for i in range(3)]


def test_pe_member_with_names_outside_its_directories(tmp_path: Path) -> None:
    """Import names in another section than the import directory (as delvewheel's rewritten
    names can be) are read where they are, and a zero tail is never inflated."""
    dll = pe64(tmp_path / "x.dll", nsections=4, descriptors=5, name_sections=(2, 3))
    data = dll.read_bytes()
    whl = make_wheel(tmp_path / "names-1.0-cp311-cp311-win_amd64.whl",
                     {"names/x.dll": data + bytes(ZEROS - len(data) % (1 << 20))})
    got, src = read(whl, "names/x.dll")
    assert not isinstance(got, str) and got.needed == ("dep.dll",) * 5
    assert got.needed == read_binary(str(dll)).needed
    assert src.decompressed < len(data) + 2 * BLOCK and src.restarts == 0


def test_a_truncated_pe_member_is_damaged_not_absent(tmp_path: Path) -> None:
    dll = pe64(tmp_path / "t.dll", nsections=3, descriptors=2, name_sections=(2,))
    whl = make_wheel(tmp_path / "cut-1.0-cp311-cp311-win_amd64.whl", {"cut/t.dll": dll.read_bytes()[:0x600]})
    got, _ = read(whl, "cut/t.dll")
    assert isinstance(got, str) and "outside the file" in got


def test_archive_declaring_too_many_members_is_refused(tmp_path: Path) -> None:
    whl = tmp_path / "many-1.0-py3-none-win_amd64.whl"
    with zipfile.ZipFile(whl, "w") as zf:
        for i in range(MAX_MEMBERS + 1):
            zf.writestr(f"many/f{i}.py", b"")
    status, _, report = cli_cost(tmp_path, str(whl))
    assert status == 2
    assert report["stderr"].strip().splitlines() == [  # type: ignore[union-attr]
        f"dldoctor: {whl}: the archive declares {MAX_MEMBERS + 1} members (no real wheel has more than "
        f"{MAX_MEMBERS}): not read"]


@pytest.mark.slow
def test_big_real_dlls_inflate_once(wheels: Dict[str, Path]) -> None:
    """torch_cpu.dll (309 MB, its directories in a 35 MB .rdata near the end) and paddle's
    DLLs: inflated once up to their last directory, no restart, same facts as the file."""
    for key in ("torch", "paddle"):
        with zipfile.ZipFile(wheels[key]) as zf:
            big: List[zipfile.ZipInfo] = sorted((i for i in zf.infolist() if i.filename.endswith((".dll", ".pyd"))),
                                                key=lambda i: -i.file_size)[:3]
            for info in big:
                src = MemberSource(zf, info)
                got = headers(src, info.filename)
                src.close()
                assert src.restarts == 0 and src.decompressed <= info.file_size, info.filename
                assert got.needed and got.machine == "x86_64"
