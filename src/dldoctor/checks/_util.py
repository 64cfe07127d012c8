"""Helpers shared by checks: platform-correct path logic for snapshots of any OS."""

from __future__ import annotations

import ntpath
import posixpath
import re
import shlex
from types import ModuleType
from typing import Optional

from packaging.version import InvalidVersion, Version

from dldoctor.snapshot.model import Snapshot


def parsed_version(version: str) -> Optional[Version]:
    """A distribution's version as PEP 440 reads it; None when it does not parse (a check
    cannot compare such a version, so it says nothing about it)."""
    try:
        return Version(version)
    except InvalidVersion:
        return None


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


def pip_of(snapshot: Snapshot) -> str:
    """How a fix runs pip for the judged interpreter: ``python -m pip`` only when the shell's
    ``python`` (the first on the snapshot's PATH) belongs to that interpreter's environment;
    otherwise its full path as a shell word (:func:`shell_path`: home stays outside quotes, so the
    command still works once home is shown as ``~``), because with ``--python PY``, or a doctor
    installed outside the patient (pipx), a bare ``python`` installs into some other environment."""
    exe = snapshot.interpreter.executable
    shell = snapshot.path_tools.get("python")
    if not exe or (shell is not None and env_of_interpreter(snapshot, shell.path) == env_of_interpreter(snapshot, exe)):
        return "python -m pip"
    if snapshot.host.os != "windows":
        return f"{shell_path(snapshot, exe)} -m pip"
    # PowerShell runs a quoted path only through its call operator
    return f"{exe} -m pip" if re.fullmatch(r"[\w@%+=:,.\\/-]+", exe) else f"& {shell_path(snapshot, exe)} -m pip"


def shell_path(snap: Snapshot, path: str) -> str:
    """A path as a shell word that still works after home is shown as ``~``: the home part
    stays outside quotes so the shell expands it."""
    if snap.host.os == "windows":
        return "'" + path.replace("'", "''") + "'"
    home = snap.host.home.rstrip("/")
    rest, lead = path, ""
    if home and path.startswith(home + "/"):
        lead, rest = "~/", path[len(home) + 1:]
    # ~ inside a word is literal to the shell (only a leading one expands), so ~orch stays bare.
    return lead + (rest if re.fullmatch(r"[\w@%+=:,./-][\w@%+=:,./~-]*", rest) else shlex.quote(rest))
