"""Files that are not files, and inputs of any size (issue 10, section 2).

Every command that reads a user's file refuses a FIFO, a device, a socket or a directory with
one line and exit 2 instead of blocking forever; stdin stays allowed (a pipe included), and
no more than 32 MiB of a file or of stdin is read. Each CLI run has a timeout, so a
regression fails here instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dldoctor.inputs import MAX_BYTES, InputError, open_regular, read_capped, read_json, read_text

TIMEOUT = 60
FIFO_KIND = "not a regular file (a FIFO)"


def dldoctor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_NO_INDEX": "1"}  # wheels -r must fail before any download
    return subprocess.run([sys.executable, "-m", "dldoctor", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT, env=env)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "in.fifo"
    os.mkfifo(path)
    yield path


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "{f}", "--no-env"],
        ["explain", "--snapshot", "{f}", "--no-env"],
        ["check", "--snapshot", "{f}"],
        ["wheels", "-r", "{f}"],
        ["deps", "{f}"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_fifo_is_refused_by_every_command(fifo: Path, tmp_path: Path, argv: List[str]) -> None:
    args = [a.replace("{f}", str(fifo)) for a in argv]
    if args[0] == "explain" and args[1] == "--snapshot":
        (tmp_path / "e.log").write_text("x\n")
        args.insert(1, str(tmp_path / "e.log"))
    line = one_line(dldoctor(*args, cwd=tmp_path))
    assert line.startswith("dldoctor: ") and line.endswith(f"{fifo}: {FIFO_KIND}"), line


def test_fifo_named_like_a_wheel_is_refused(tmp_path: Path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    os.mkfifo(wheel)
    assert one_line(dldoctor("wheels", str(wheel), cwd=tmp_path)) == f"dldoctor: {wheel}: {FIFO_KIND}"


def test_lint_reports_a_fifo_and_lints_the_rest(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_text("import os\n")
    done = dldoctor("lint", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == f"{tmp_path / 'pipe.py'}: error: {FIFO_KIND}\n"
    done = dldoctor("lint", str(tmp_path / "pipe.py"), cwd=tmp_path)
    assert done.stderr == f"{tmp_path / 'pipe.py'}: error: {FIFO_KIND}\n"


@pytest.mark.parametrize("kind", ["directory", "character device", "socket"])
def test_other_non_files_are_named(tmp_path: Path, kind: str) -> None:
    sock = socket.socket(socket.AF_UNIX)
    with sock:
        if kind == "directory":
            target = str(tmp_path)
        elif kind == "character device":
            target = os.devnull  # /dev/null; /dev/zero would never end
        else:
            target = str(tmp_path / "s.sock")
            sock.bind(target)
        for args in (["explain", target, "--no-env"], ["check", "--snapshot", target], ["deps", target]):
            line = one_line(dldoctor(*args, cwd=tmp_path))
            assert line.endswith(f"{target}: not a regular file (a {kind})"), line
        with pytest.raises(InputError, match=f"a {kind}"):
            open_regular(target)


def test_stdin_pipe_is_read_and_capped(tmp_path: Path) -> None:
    """40 MiB piped in: the first 32 MiB are read, the rest named as not read, memory bounded."""
    line = b"epoch 3: loss 0.12 \xc3\xa9\xf0\x9f\x98\x80\r\n"  # non-ASCII, an emoji, CRLF
    measure = (
        "import resource, subprocess, sys\n"
        "data = sys.stdin.buffer.read()\n"
        "done = subprocess.run([sys.executable, '-m', 'dldoctor', 'explain', '-', '--no-env', '--format', 'json'],"
        " input=data, capture_output=True)\n"
        "sys.stdout.write(done.stdout.decode()); sys.stderr.write(done.stderr.decode())\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(done.returncode)\n"
    )
    payload = line * (40 * 1024 * 1024 // len(line))
    done = subprocess.run([sys.executable, "-c", measure], input=payload, capture_output=True, timeout=300)
    err = done.stderr.decode().splitlines()
    assert done.returncode in (0, 1) and not any("Traceback" in ln for ln in err), err
    assert err[0] == "dldoctor: note: stdin: read the first 32.0 MiB; the rest was not read"
    report = json.loads(done.stdout)
    assert report["notes"] == [err[0][len("dldoctor: note: "):]]
    assert report["input"]["lines"] == MAX_BYTES // len(line) + 1
    assert int(err[-1]) < 300 * 1024, f"peak RSS {int(err[-1]) // 1024} MiB"


def test_file_keeps_its_tail_and_says_what_was_skipped(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    tail = b"\nOSError: [WinError 126] The specified module could not be found.\n"
    with log.open("wb") as fh:
        fh.truncate(3 * 1024 * 1024)  # sparse: 3 MiB of NULs, then the tail
        fh.seek(0, 2)
        fh.write(tail)
    got = read_capped(str(log), limit=1024 * 1024, tail=True)
    assert got.data.endswith(tail) and len(got.data) == 1024 * 1024
    assert got.note(str(log)) == f"{log}: 3.0 MiB; read the last 1.0 MiB, skipped the first 2.0 MiB"
    head = read_capped(str(log), limit=1024 * 1024)
    assert head.data == bytes(1024 * 1024) and head.skipped == len(tail) + 2 * 1024 * 1024
    assert read_text(str(log), limit=1024 * 1024, tail=True)[0].endswith(tail.decode())


def _pipe_of(data: bytes) -> int:
    """A real pipe's read end, filled by a writer thread (a pipe buffer holds only 64 KiB)."""
    import threading

    rd, wr = os.pipe()

    def feed() -> None:
        try:
            with os.fdopen(wr, "wb") as fh:
                fh.write(data)
        except BrokenPipeError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    return rd


def test_read_capped_stops_a_stream_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    data = os.urandom(3 * 1024 * 1024)
    with os.fdopen(_pipe_of(data), "rb") as rd:
        monkeypatch.setattr(sys, "stdin", type("S", (), {"buffer": rd})())
        got = read_capped("-", limit=1024 * 1024)
    assert got.data == data[: 1024 * 1024] and got.skipped and got.total is None
    assert got.note("stdin") == "stdin: read the first 1.0 MiB; the rest was not read"


def test_binary_text_stays_narrow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Binary noise decodes to at most 2 bytes a character (no astral character widens it)."""
    noise = os.urandom(2 * 1024 * 1024) + "😀".encode() * 1000
    path = tmp_path / "noise.bin"
    path.write_bytes(noise)
    text, note = read_text(str(path))
    assert note == "" and text and max(text) <= "\uffff"
    assert text.endswith("\ufffd" * 1000)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", "é".encode(), "中".encode(), "😀".encode(),
                                 b"\xf0\x9f", b"\x98\x80", b"\xc3", b"\x80", b"\xff", b"\xf4\x90\x80\x80",
                                 b"\xf0\x80\x80\x80", b"\xed\xa0\x80"]), max_size=40).map(b"".join),
       st.integers(min_value=1, max_value=9))
def test_text_decodes_as_whole_text_would_across_chunk_edges(raw: bytes, chunk: int) -> None:
    """Chunked narrowing = decode the whole, then replace astral characters and CRLF."""
    import re

    from dldoctor.inputs import _narrow

    whole = re.sub("[\U00010000-\U0010FFFF]", "\ufffd", raw.decode("utf-8", errors="replace")).replace("\r\n", "\n")
    assert _narrow(raw, chunk).decode("utf-8", errors="replace") == whole


def test_json_inputs_are_bounded_in_values_and_depth(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.json"
    bomb.write_text("[" + "{}," * 1_100_000 + "{}]")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    nested = tmp_path / "nested.json"
    nested.write_text('{"host": ' + "[" * 900 + "]" * 900 + "}")
    with pytest.raises(InputError, match="more than 1,000,000 JSON values"):
        read_json(str(bomb))
    for path in (bomb, deep, nested):
        line = one_line(dldoctor("check", "--snapshot", str(path), cwd=tmp_path))
        assert line.startswith(f"dldoctor: --snapshot {path}: "), line
