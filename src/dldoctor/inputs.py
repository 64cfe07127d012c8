"""Reading what a user hands to dldoctor: one file, or stdin, in bounded time and memory.

Every command that reads a user's file goes through here, because the hazards are the same
for all of them:

- A FIFO, a device, a socket or a directory is not a file: opening a FIFO for reading blocks
  until a writer comes (forever), ``/dev/zero`` never ends. They are refused with one line
  (exit 2). The file is opened non-blocking and judged by ``fstat`` of what was opened, so
  nothing can be swapped in between a check and the open. Stdin (``-``) stays allowed,
  a pipe included: that is how logs are piped in.
- Size: at most :data:`MAX_BYTES` are read, of a file or of stdin; the rest is reported as
  skipped (a file: which part, and how much; a stream: it is not read further, so an endless
  one ends too). JSON input is parsed only when its number of values is bounded too: 32 MiB
  of ``{},`` would otherwise become 0.8 GB of dicts.

This module sits below the CLI and the engines (like :mod:`dldoctor.errors`) and imports
nothing of dldoctor's but that, so ``deps`` and ``lint`` can use it at no start-up cost.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Any, BinaryIO, List, NamedTuple, Optional, Tuple

from dldoctor.errors import DldoctorError

MAX_BYTES = 32 * 1024 * 1024
# A torch + numpy + scipy venv's snapshot: 270 KB, 8.8k values (~60 per native library), so
# this admits ~16k libraries; 1M parsed values of the costliest kind ({}) take ~100 MB.
MAX_JSON_VALUES = 1_000_000
_CHUNK = 1024 * 1024
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputError(DldoctorError):
    """A user's input that cannot be read as given: one line, exit 2.

    ``reason`` is the line without the input's name, for callers that print the name
    their own way (lint: ``path: error: reason``).
    """

    def __init__(self, label: str, reason: str) -> None:
        super().__init__(f"{label}: {reason}")
        self.reason = reason


class Capped(NamedTuple):
    """What was read, and what was not."""

    data: bytes
    skipped: int  # bytes not read (0: all of it); for a stream, at least 1 when it went on
    total: Optional[int]  # the file's size; None for a stream (its length is never known)
    tail: bool  # True when the skipped bytes are the head (the tail was kept)

    def note(self, label: str) -> str:
        """One line saying what was skipped ("" when nothing was)."""
        if not self.skipped:
            return ""
        read = _size(len(self.data))
        if self.total is None:
            return f"{label}: read the first {read}; the rest was not read"
        kept, dropped = ("last", "first") if self.tail else ("first", "last")
        return f"{label}: {_size(self.total)}; read the {kept} {read}, skipped the {dropped} {_size(self.skipped)}"


def _size(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO", "a directory", ...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str, label: Optional[str] = None) -> BinaryIO:
    """Open ``path`` for reading, refusing anything but a regular file (never blocks).

    ``label`` names the input in the message (default: the path), e.g. ``--snapshot x.json``.
    Raises :class:`InputError` with one line.
    """
    label = label or path
    nonblock = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a FIFO must not wait for a writer
    flags = os.O_RDONLY | nonblock | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        try:  # a socket cannot be opened at all (ENXIO): name what it is
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise InputError(label, f"not a regular file ({kind_of(mode)})") from None
        raise InputError(label, f"cannot read ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(label, f"not a regular file ({kind_of(mode)})")
        if nonblock:
            os.set_blocking(fd, True)  # no effect on a regular file's reads; plain for callers
        return open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def check_regular(path: str, label: Optional[str] = None) -> None:
    """Raise :class:`InputError` unless ``path`` is a readable regular file (opened, then closed)."""
    open_regular(path, label).close()


def _read_stream(fh: BinaryIO, limit: int) -> Capped:
    parts: List[bytes] = []
    got = 0
    while got < limit:
        chunk = fh.read(min(_CHUNK, limit - got))
        if not chunk:
            return Capped(b"".join(parts), 0, None, False)
        parts.append(chunk)
        got += len(chunk)
    more = fh.read(1)  # one byte tells whether the stream went on; it is not read further
    return Capped(b"".join(parts), 1 if more else 0, None, False)


def _read_file(fh: BinaryIO, limit: int, tail: bool) -> Capped:
    size = os.fstat(fh.fileno()).st_size
    start = max(0, size - limit) if tail else 0
    fh.seek(start)
    data = fh.read(limit)
    return Capped(data, max(0, size - len(data)), size, tail)


def _is_regular_fd(stream: BinaryIO) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):  # no descriptor (an in-memory stream): read it as a stream
        return False


def read_capped(name: str, label: Optional[str] = None, limit: int = MAX_BYTES, tail: bool = False) -> Capped:
    """At most ``limit`` bytes of the file ``name``, or of stdin when ``name`` is ``-``.

    ``tail`` keeps the end of a file instead of its start (logs end with the traceback); a
    pipe can only be read from its start. Raises :class:`InputError` for a file that is not
    a regular file or cannot be read.
    """
    label = label or ("stdin" if name == "-" else name)
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # no stdin at all (closed descriptor): nothing to read
            return Capped(b"", 0, 0, False)
        try:
            if tail and _is_regular_fd(stream):
                return _read_file(stream, limit, tail)  # `< file`: seekable, as a named file
            return _read_stream(stream, limit)
        except (OSError, ValueError) as exc:
            raise InputError(label, f"cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    with open_regular(name, label) as fh:
        try:
            return _read_file(fh, limit, tail)
        except OSError as exc:
            raise InputError(label, f"cannot read ({exc.strerror or exc})") from None


# A valid 4-byte UTF-8 sequence (U+10000..U+10FFFF), exactly as the decoder accepts it.
_ASTRAL_UTF8 = rb"\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"


def _narrow(data: bytes, chunk: int = _CHUNK) -> bytearray:
    """``data`` with CRLF as LF and every character beyond the BMP as U+FFFD, still encoded,
    chunk by chunk (a whole-text substitution with a match on every line holds millions of
    pieces). Decoding the result gives what decoding ``data`` and replacing would."""
    import re

    astral = re.compile(_ASTRAL_UTF8)
    out = bytearray()
    start, size = 0, len(data)
    while start < size:
        end = cut = min(start + chunk, size)
        while end < size and end - cut < 3 and (data[end] & 0xC0) == 0x80:  # not inside a UTF-8 sequence
            end += 1
        if end < size and data[end - 1] == 0x0D and data[end] == 0x0A:  # nor between CR and LF
            end += 1
        out += astral.sub(b"\xef\xbf\xbd", data[start:end].replace(b"\r\n", b"\n"))
        start = end
    return out


def read_text(name: str, label: Optional[str] = None, limit: int = MAX_BYTES, tail: bool = False) -> Tuple[str, str]:
    """:func:`read_capped`, decoded leniently in bounded memory, and its note ("" if complete).

    Invalid UTF-8 becomes U+FFFD and CRLF becomes LF. Characters beyond the BMP (emoji, or
    4-byte sequences in binary noise) become U+FFFD too, before decoding: one of them would
    make Python store every character of the text in 4 bytes (128 MB per copy of 32 MiB,
    and the decoder's intermediate as much again), and no error text needs them. No copy of
    the bytes outlives the step that replaces it.
    """
    label = label or ("stdin" if name == "-" else name)
    got = read_capped(name, label, limit, tail)
    note, data = got.note(label), got.data
    del got
    if data.isascii():
        return (data.replace(b"\r\n", b"\n") if b"\r\n" in data else data).decode("ascii"), note
    narrow = _narrow(data)
    del data
    return narrow.decode("utf-8", errors="replace"), note


def read_json(name: str, label: Optional[str] = None, invalid: str = "not valid JSON", limit: int = MAX_BYTES,
              max_values: int = MAX_JSON_VALUES) -> Any:
    """Parse a JSON file (or stdin) of bounded size and bounded number of values.

    Raises :class:`InputError` when unreadable, too large, or not JSON (one line each;
    ``invalid`` starts the line for text that does not parse).
    """
    label = label or ("stdin" if name == "-" else name)
    got = read_capped(name, label, limit)
    if got.skipped:
        raise InputError(label, f"larger than {_size(limit)}; not read")
    return loads_bounded(got.data, label, invalid, max_values)


def json_values(data: bytes) -> int:
    """At least as many as the values JSON bytes hold, counted without parsing them: every
    value but the first of a container follows a comma, and containers open once."""
    return data.count(b",") + data.count(b"[") + data.count(b"{") + 1


def check_values(data: bytes, label: str, max_values: int = MAX_JSON_VALUES) -> None:
    """Raise :class:`InputError` when JSON bytes hold more than ``max_values`` values (a
    parsed value costs tens of bytes of memory: a small file of ``[0,0,...]`` is large)."""
    values = json_values(data)
    if values > max_values:
        raise InputError(label, f"more than {max_values:,} JSON values; not read")


def loads_bounded(data: bytes, label: str, invalid: str = "not valid JSON", max_values: int = MAX_JSON_VALUES) -> Any:
    """Parse JSON bytes already read (bounded) when their number of values is bounded too."""
    import json

    check_values(data, label, max_values)
    try:
        return json.loads(data)  # bytes: no decoded copy of the whole text
    except UnicodeDecodeError as exc:
        raise InputError(label, f"{invalid} (not UTF-8: {exc.reason} at byte {exc.start})") from None
    except ValueError as exc:
        raise InputError(label, f"{invalid} ({exc})") from None
    except RecursionError:
        raise InputError(label, f"{invalid} (nested too deeply)") from None
