"""Run a corpus tool's main(): a broken corpus case (DataError) is one line and exit 2, as in
dldoctor itself, never a traceback. Shared by the scripts in tools/ (imported as `_run`, their
folder is first on sys.path when run as `python tools/X.py`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, NoReturn

from dldoctor.errors import DataError


def run(main: Callable[[], int], script: str) -> NoReturn:
    """``raise SystemExit(main())``, with a DataError told as ``script: message`` and exit 2."""
    try:
        raise SystemExit(main())
    except DataError as exc:  # a corpus case that breaks its schema: one line, exit 2
        print(f"{Path(script).name}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
