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
