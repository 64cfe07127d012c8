"""Turn paths into parseable sources: .py files, notebooks, directories; and ``# noqa`` marks.

Why notebooks are joined: the cells of a notebook run in one interpreter, so import order
spans cells. The parseable code cells are joined into one text (a cell that does not parse
is reported and left out, so it cannot hide the others) and every line keeps its
(cell, line) address for the output. IPython magics (``%``/``!`` lines) become ``pass``.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Tuple

from dldoctor.inputs import InputError, loads_bounded, open_regular

MAX_PY_BYTES = 10 * 1024 * 1024  # hand-written code is far smaller; larger is generated
MAX_NOTEBOOK_BYTES = 64 * 1024 * 1024  # notebooks carry image outputs
# The parsed tree costs ~1 KB per token at worst (`x = [0, 0, ...]`: 200k tokens, 200 MB;
# 5 MB of it on one line, 2.5 GB and minutes), so the bytes cap alone does not bound memory.
# 150k tokens is ~15k lines of dense hand-written code; more is generated, and not linted.
MAX_TOKENS = 150_000
SKIP_DIRS = frozenset({"site-packages", "dist-packages", "__pycache__", "node_modules"})

_NOQA = re.compile(
    r"#\s*noqa(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_MAGIC = re.compile(r"^(\s*)([%!].*)$")
_STRING_PREFIX = re.compile(r"[A-Za-z]*")


_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line ends of Python's tokenizer (not form feeds)


@lru_cache(maxsize=8)
def _line_starts(text: str) -> Tuple[int, ...]:
    return (0, *(m.end() for m in _NEWLINE.finditer(text)))


@lru_cache(maxsize=64)
def _line_bytes(text: str, index: int) -> bytes:
    """Line ``index`` (0-based) of ``text`` in UTF-8, the encoding of ``ast``'s column offsets."""
    starts = _line_starts(text)
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    return text[starts[index]:end].encode("utf-8", "surrogatepass")


def segment(text: str, node: ast.AST, limit: int = 24) -> str:
    """The source of ``node`` on one line, shortened for a message ("..." when unknown).

    Not ``ast.get_source_segment``: it splits the whole source into lines one character at a
    time on every call, quadratic on a long line (a 3 MB string literal took 16 minutes, and
    an f-string of 20,000 fields asks for each field's source). Here each line is encoded once,
    and only the start of a long node is read: the message shows ``limit`` characters."""
    where = [getattr(node, name, None) for name in ("lineno", "end_lineno", "col_offset", "end_col_offset")]
    if not all(isinstance(v, int) for v in where):
        return "..."
    lineno, end_lineno, col, end_col = (int(v) for v in where)  # type: ignore[arg-type]
    if not 1 <= lineno <= end_lineno <= len(_line_starts(text)):
        return "..."
    def read(budget: int) -> Tuple[str, bool]:
        raw = b""
        for index in range(lineno - 1, end_lineno):
            line = _line_bytes(text, index)
            raw += line[col if index == lineno - 1 else 0:end_col if index == end_lineno - 1 else len(line)]
            if len(raw) > budget:
                break
        return " ".join(raw[:budget].decode("utf-8", "replace").split()), len(raw) > budget

    piece, cut = read(64 * (limit + 16))
    if cut and len(piece) <= limit:  # mostly blanks: read it whole
        piece, _ = read(len(text) * 4)
    piece = piece or "..."
    return piece if len(piece) <= limit else piece[: limit - 3] + "..."


class SourceError(Exception):
    """One file cannot be linted (unreadable, undecodable, not Python)."""


@dataclass(frozen=True)
class Cell:
    """Where one notebook code cell sits in the joined text."""

    number: int  # 1-based index among the notebook's code cells
    first_line: int  # 1-based line of the joined text where the cell starts
    lines: int


@dataclass(frozen=True)
class Source:
    path: Path
    text: str
    notebook: bool = False
    cells: Tuple[Cell, ...] = ()
    problems: Tuple[str, ...] = ()  # parts left out (a notebook cell that does not parse)

    def locate(self, line: int) -> Tuple[int | None, int]:
        """(cell number or None, line within the cell) of a line of ``text``."""
        for cell in self.cells:
            if cell.first_line <= line < cell.first_line + cell.lines:
                return cell.number, line - cell.first_line + 1
        return None, line

    @property
    def in_package(self) -> bool:
        return (self.path.parent / "__init__.py").is_file()

    @property
    def shebang(self) -> bool:
        return self.text.startswith("#!")


def parse_noqa(text: str) -> Dict[int, FrozenSet[str] | None]:
    """Line -> codes silenced there (None: bare ``# noqa`` silences everything)."""
    out: Dict[int, FrozenSet[str] | None] = {}
    for no, line in enumerate(text.splitlines(), 1):
        if "noqa" not in line.lower():
            continue
        m = _NOQA.search(line)
        if m is None:
            continue
        codes = m.group("codes")
        out[no] = None if codes is None else frozenset(re.split(r"[,\s]+", codes.upper()))
    return out


def _read_bytes(path: Path, limit: int) -> bytes:
    try:
        with open_regular(str(path)) as fh:  # a FIFO named x.py must not block the walk
            data = fh.read(limit + 1)
    except InputError as exc:
        raise SourceError(exc.reason) from None
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise SourceError(f"larger than {limit // (1024 * 1024)} MiB, not linted")
    return data


def _decode_py(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        raise SourceError(f"cannot decode: {exc}") from None


def _cell_text(raw: object) -> str:
    if isinstance(raw, list):
        return "".join(x for x in raw if isinstance(x, str))
    return raw if isinstance(raw, str) else ""


def _unmagic(text: str) -> str:
    lines = []
    for line in text.splitlines():
        m = _MAGIC.match(line)
        lines.append(f"{m.group(1)}pass  # {m.group(2)}" if m else line)
    return "\n".join(lines) + "\n"


def read_notebook(path: Path) -> Source:
    try:  # nesting and number of values bounded: a notebook is JSON anyone can write
        doc = loads_bounded(_read_bytes(path, MAX_NOTEBOOK_BYTES), str(path), "invalid JSON")
    except InputError as exc:
        raise SourceError(f"not a notebook ({exc.reason})") from None
    raw_cells = doc.get("cells") if isinstance(doc, dict) else None
    if not isinstance(raw_cells, list):
        raise SourceError("not a notebook (no cells list)")
    parts: List[str] = []
    cells: List[Cell] = []
    problems: List[str] = []
    line = 1
    number = 0
    for raw in raw_cells:
        if not isinstance(raw, dict) or raw.get("cell_type") != "code":
            continue
        number += 1
        text = _cell_text(raw.get("source"))
        if text.lstrip().startswith("%%") or not text.strip():
            continue  # a cell magic: not Python (bash, writefile, ...)
        code = _unmagic(text)
        try:
            _parse(code, str(path))
        except SourceError as exc:
            problems.append(f"cell {number}: {exc}")
            continue
        n = code.count("\n")
        cells.append(Cell(number, line, n))
        parts.append(code)
        line += n
    return Source(path, "".join(parts), notebook=True, cells=tuple(cells), problems=tuple(problems))


def _reason(exc: Exception) -> str:
    return getattr(exc, "msg", None) or str(exc)


def read_source(path: Path) -> Source:
    """Read one .py or .ipynb file; SourceError when it cannot be linted at all."""
    if path.suffix == ".ipynb":
        return read_notebook(path)
    return Source(path, _decode_py(_read_bytes(path, MAX_PY_BYTES)))


def parse(source: Source) -> ast.Module:
    """Parse a Source; SourceError with the line for a syntax error."""
    return _parse(source.text, str(source.path))


def _too_many_tokens(text: str, limit: int = MAX_TOKENS) -> bool:
    """Whether ``text`` holds more than ``limit`` tokens, counted up to ``limit`` + 1 only.

    Every token is at least one character, so a short text needs no count. A text the pure
    tokenizer rejects (where it differs from the compiler's) is judged by an upper bound that
    needs no tokenizer: its runs of word characters and its other non-blank characters. Before
    Python 3.12 an f-string is one token however many fields it holds (and 3.11 compiles one of
    50,000 fields in seconds): each field counts as the three tokens 3.12 makes of it."""
    if len(text) <= limit:
        return False
    count = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            count += 1
            prefix = _STRING_PREFIX.match(token.string) if token.type == tokenize.STRING else None
            if prefix is not None and "f" in prefix.group(0).lower():
                count += 3 * token.string.count("{")
            if count > limit:
                return True
        return False
    except (tokenize.TokenError, SyntaxError, ValueError):
        pieces = re.finditer(r"\w+|[^\w\s]", text)
        return sum(1 for _ in zip(range(limit + 1), pieces)) > limit


def _parse(text: str, filename: str) -> ast.Module:
    if _too_many_tokens(text):
        raise SourceError(f"more than {MAX_TOKENS:,} tokens (generated code?), not linted")
    try:
        return ast.parse(text, filename=filename)
    except (SyntaxError, ValueError) as exc:
        where = getattr(exc, "lineno", None)
        suffix = f" (line {where})" if where else ""
        raise SourceError(f"cannot parse: {_reason(exc)}{suffix}") from None
    except (RecursionError, MemoryError):
        raise SourceError("cannot parse: too deeply nested") from None


def _skip_dir(path: Path) -> bool:
    name = path.name
    return name.startswith(".") or name in SKIP_DIRS or (path / "pyvenv.cfg").is_file()


def walk(path: Path) -> Iterator[Path]:
    """The .py and .ipynb files under a directory, sorted; virtual envs and hidden dirs skipped."""
    for root, dirs, files in os.walk(path):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not _skip_dir(here / d))
        for name in sorted(files):
            if name.endswith((".py", ".ipynb")) and not name.startswith("."):
                yield here / name
