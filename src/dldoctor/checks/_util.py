"""Helpers shared by checks: platform-correct path logic for snapshots of any OS."""

from __future__ import annotations

import ntpath
import posixpath
from types import ModuleType

from dldoctor.snapshot.model import Snapshot


def pathmod(snapshot: Snapshot) -> ModuleType:
    """Judge a Windows snapshot with Windows path rules even on Linux (and the reverse)."""
    return ntpath if snapshot.host.os == "windows" else posixpath


def norm(snapshot: Snapshot, path: str) -> str:
    mod = pathmod(snapshot)
    return str(mod.normcase(mod.normpath(path)))


def is_within(snapshot: Snapshot, path: str, folder: str) -> bool:
    p, f = norm(snapshot, path), norm(snapshot, folder)
    sep = "\\" if snapshot.host.os == "windows" else "/"
    return p == f or p.startswith(f.rstrip(sep) + sep)


def env_of_interpreter(snapshot: Snapshot, exe: str) -> str:
    """The environment folder an interpreter belongs to: the parent of bin/ or Scripts/,
    else its own folder (conda's python.exe at the prefix root on Windows)."""
    mod = pathmod(snapshot)
    folder = mod.dirname(exe)
    if mod.basename(folder).lower() in ("bin", "scripts"):
        folder = mod.dirname(folder)
    return norm(snapshot, folder)
