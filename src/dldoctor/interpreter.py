"""Which interpreter a command examines: one lookup for check, snapshot and probe."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Optional

from dldoctor.errors import DldoctorError


def resolve_python(python: Optional[str]) -> str:
    """An absolute interpreter path from ``--python``: a path, a name on PATH
    (``python3.12``), or an environment folder (venv / conda prefix). Default: this one."""
    if not python:
        return sys.executable
    if os.sep not in python and "/" not in python and not Path(python).exists():
        found = shutil.which(python)
        if found is None:
            raise DldoctorError(f"no Python interpreter at {python}: not on PATH")
        python = found
    path = Path(python).expanduser()
    if path.is_dir():
        for cand in ("bin/python", "bin/python3", "Scripts/python.exe", "python.exe"):
            if (path / cand).is_file():
                return str((path / cand).absolute())
        raise DldoctorError(f"no Python interpreter at {python}: a folder without bin/python or python.exe")
    if not path.exists():
        raise DldoctorError(f"no Python interpreter at {python}: no such file")
    if not path.is_file() or not os.access(path, os.X_OK):
        raise DldoctorError(f"no Python interpreter at {python}: not an executable")
    return str(path.absolute())


MIN_PYTHON = (3, 8)  # what the collector and the probe child are written for


def unsupported(version: str) -> str:
    """The one line for a target older than MIN_PYTHON (``version``: "2.7.18")."""
    short = ".".join(version.split(".")[:2])
    need = ".".join(map(str, MIN_PYTHON))
    return f"unsupported interpreter (Python {short}; dldoctor needs {need}+)"


def version_guard(channel_arg: int, line: str) -> str:
    """Python source that any interpreter from 2.7 on can parse and run: on a Python older
    than MIN_PYTHON it appends ``line % (major, minor, micro)`` to the file named by
    ``sys.argv[channel_arg]`` and exits 0; on a supported one it falls through.

    Why: the collector and the probe child are 3.8+ code, which 2.7 (and 3.6) cannot even
    compile; without this guard an old interpreter's SyntaxError would be reported as a
    broken environment instead of "unsupported interpreter"."""
    return (
        "import sys\n"
        f"if sys.version_info[:2] < {MIN_PYTHON!r}:\n"
        f"    _f = open(sys.argv[{channel_arg}], 'a')\n"
        f"    _f.write({line!r} % tuple(sys.version_info[:3]))\n"
        "    _f.close()\n"
        "    sys.exit(0)\n"
    )
