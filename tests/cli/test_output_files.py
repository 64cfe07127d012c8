"""``-o FILE`` never replaces what is not a regular file, and never waits for a reader.

Writing aside and renaming onto the target is right for a file, and wrong for anything
else: as root, ``dldoctor snapshot -o /dev/null`` put a regular file where the device was
(seen on /dev/full in the red-team pass); ``-o FIFO`` swapped the FIFO for a file and
``wheels -o FIFO`` waited forever for a reader. A FIFO or a character device is written
into, as a shell redirection would; a FIFO nobody reads and a directory are one line, exit 2.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
from pathlib import Path
from typing import List

import pytest

from ..conftest import run_dldoctor


def _one_line(done: subprocess.CompletedProcess) -> str:  # type: ignore[type-arg]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_fifo_without_a_reader_is_refused_and_kept(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    line = _one_line(run_dldoctor("snapshot", "-o", str(fifo)))
    assert line == f"dldoctor: cannot write {fifo}: a FIFO that no process reads"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["out.json"]


def test_a_fifo_with_a_reader_gets_the_snapshot(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: List[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    done = run_dldoctor("snapshot", "-o", str(fifo))
    reader.join(60)
    assert done.returncode == 0, done.stderr
    assert json.loads(got[0])["schema_version"] >= 1
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["out.json"]


@pytest.mark.skipif(not hasattr(os, "mknod") or os.geteuid() != 0, reason="mknod of a device needs root")
def test_a_character_device_is_written_into_not_replaced(tmp_path: Path) -> None:
    """A private copy of /dev/null (1, 3) and of /dev/full (1, 7): the system's are not risked."""
    null, full = tmp_path / "null", tmp_path / "full"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    assert run_dldoctor("snapshot", "-o", str(null)).returncode == 0
    assert _one_line(run_dldoctor("snapshot", "-o", str(full))).endswith("No space left on device")
    for dev in (null, full):
        assert stat.S_ISCHR(os.stat(dev).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["full", "null"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    line = _one_line(run_dldoctor("snapshot", "-o", str(tmp_path)))
    assert line == f"dldoctor: cannot write {tmp_path}: not a regular file (a directory)"


def test_a_regular_file_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "snap.json"
    out.write_text("old")
    assert run_dldoctor("snapshot", "-o", str(out)).returncode == 0
    assert json.loads(out.read_text())["schema_version"] >= 1 and os.listdir(tmp_path) == ["snap.json"]


def test_wheels_snapshot_out_to_a_fifo_without_a_reader_does_not_wait(tmp_path: Path) -> None:
    """`wheels -o` opened the FIFO for writing and waited for a reader forever."""
    import zipfile

    whl = tmp_path / "foo-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(whl, "w") as zf:
        zf.writestr("foo-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: foo\nVersion: 1.0\n")
        zf.writestr("foo-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr("foo-1.0.dist-info/RECORD", "")
        zf.writestr("foo/__init__.py", "")
    fifo = tmp_path / "virtual.json"
    os.mkfifo(fifo)
    line = _one_line(run_dldoctor("wheels", str(whl), "-o", str(fifo)))
    assert line == f"dldoctor: cannot write {fifo}: a FIFO that no process reads"
