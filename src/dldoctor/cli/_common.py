"""Options and output shared by subcommands: one place for --format, timeouts, redaction
and the encoding of what is written.

Every command writes its rendering through :func:`emit` (or :func:`write_file` for ``-o``):
the one point where secrets and home folders are taken out (``dldoctor.redact``) and where
the text meets the stream's encoding. A Windows user redirecting to a file gets cp1252, a
``PYTHONIOENCODING=ascii`` shell gets ASCII: marks fall back to ASCII ones, and any other
character the stream cannot carry is written as an escape, never a UnicodeEncodeError.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import math
import os
import stat
import sys
from pathlib import Path
from typing import Iterable, TextIO, Tuple

from dldoctor.errors import DldoctorError
from dldoctor.inputs import kind_of
from dldoctor.redact import redact_output

# What the renderers draw with, and the ASCII each becomes where the stream lacks it.
ASCII_MARKS = str.maketrans({
    "✓": "ok", "✗": "x", "✅": "(ok)", "❌": "(error)", "⚠": "(warning)", "ℹ": "(info)",
    "\ufe0f": "", "├": "|", "└": "`", "│": "|", "─": "-", "·": "-", "…": "...", "—": "-", "–": "-",
})


def _escape(exc: UnicodeError) -> Tuple[str, int]:
    """``\\uXXXX`` for what the encoding lacks: readable in text, valid inside JSON strings."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        code = ord(ch)
        if code > 0xFFFF:  # JSON spells astral characters as a surrogate pair
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


codecs.register_error("dldoctor-escape", _escape)


def add_format(parser: argparse.ArgumentParser, choices: Iterable[str] = ("text", "json", "markdown")) -> None:
    parser.add_argument("--format", choices=tuple(choices), default="text", help="output format (default: text)")


def seconds(text: str) -> float:
    """An argparse type for timeouts: a finite number of seconds above zero (``nan``,
    ``inf``, 0 and negatives would hang or end at once)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, not {text!r}")
    return value


def encodable(text: str, encoding: str) -> str:
    """``text`` as ``encoding`` can carry it: ASCII marks where it lacks ✓/✗, escapes for
    any other character it lacks."""
    try:
        "✓✗".encode(encoding)
    except UnicodeEncodeError:
        text = text.translate(ASCII_MARKS)
    except LookupError:
        encoding = "utf-8"
    return text.encode(encoding, "dldoctor-escape").decode(encoding)


def _write(stream: TextIO, text: str) -> None:
    stream.write(encodable(text, getattr(stream, "encoding", None) or "utf-8"))
    stream.flush()


def emit(text: str, homes: Iterable[str] = ()) -> None:
    """Write a rendering to stdout: secrets and home folders out, encodable by stdout."""
    _write(sys.stdout, redact_output(text, homes))


def write_file(path: str, text: str, homes: Iterable[str] = (), atomic: bool = False) -> None:
    """Write a rendering to a file (UTF-8), through the same redaction as :func:`emit`.

    ``atomic`` writes aside and renames, so a reader never sees half a file. A path that
    exists and is not a regular file is never replaced: renaming onto ``/dev/null`` as root
    would put a file where the device was. A character device or a FIFO is written into
    as a shell redirection would (a FIFO without a reader is refused, never waited for);
    anything else (a directory, a socket) is refused with one line."""
    data = redact_output(text, homes).encode("utf-8")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise DldoctorError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        if mode is not None and not stat.S_ISREG(mode):
            if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
                raise DldoctorError(f"cannot write {path}: not a regular file ({kind_of(mode)})")
            _write_into(path, data, stat.S_ISFIFO(mode))
        elif atomic:
            aside = f"{path}.{os.getpid()}.tmp"
            Path(aside).write_bytes(data)
            os.replace(aside, path)
        else:
            Path(path).write_bytes(data)
    except OSError as exc:
        raise DldoctorError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_into(path: str, data: bytes, fifo: bool) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if fifo and exc.errno == errno.ENXIO:
            raise DldoctorError(f"cannot write {path}: a FIFO that no process reads") from None
        raise
    with open(fd, "wb", closefd=True) as fh:
        os.set_blocking(fd, True)
        fh.write(data)


# C0 controls and DEL (tab kept): a file name may hold a newline, and a line must stay one line.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x09), *range(0x0A, 0x20), 0x7F)}
_CONTROLS.update({0x0A: "\\n", 0x0D: "\\r"})


def stderr_line(text: str) -> None:
    """One line on stderr: redacted, control characters escaped, encodable by stderr."""
    _write(sys.stderr, redact_output(text).translate(_CONTROLS) + "\n")


def error_line(message: str) -> None:
    """The one line of an exit-2 error on stderr, redacted like every other output."""
    stderr_line(f"dldoctor: {message}")
