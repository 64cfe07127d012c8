"""Which layer of sys.path a folder is: a PYTHONPATH entry, the user site, or the
environment's own site folders. Python builds sys.path as: the script's folder, PYTHONPATH,
the standard library, the user site (``site.ENABLE_USER_SITE``), then the environment's
site-packages (a venv with system site packages: its own, then the base's); the first
folder that holds a module wins. Shared by the checks that name the layer that made a copy
win (pythonpath-pollution, user-site-shadowing) and by the ones that leave those copies to
them (duplicate-install, unsupported-python, shadowed-module)."""

from __future__ import annotations

import re
from typing import Optional, Tuple

from dldoctor.checks._util import is_within, norm, pathmod
from dldoctor.snapshot.model import PythonPathEntry, Snapshot

_PY_IN_PATH = re.compile(r"python[-_]?(\d)\.?(\d{1,2})(?:[\\/]|$)", re.IGNORECASE)
_ABI_TAG = re.compile(r"^(?:cpython-|cp)(\d)(\d{1,2})")


def pythonpath_entry(snap: Snapshot, folder: str) -> Optional[PythonPathEntry]:
    """The PYTHONPATH entry ``folder`` is (not merely lies in), if any."""
    key = norm(snap, folder)
    return next((e for e in snap.python_path if e.exists and norm(snap, e.path) == key), None)


def is_user_site(snap: Snapshot, folder: str) -> bool:
    us = snap.interpreter.user_site
    return bool(us) and norm(snap, folder) == norm(snap, us or "")


def delegated(snap: Snapshot, folder: str) -> bool:
    """True when what ``folder`` holds is judged by pythonpath-pollution or user-site-shadowing:
    a PYTHONPATH entry outside the environment, or the user site."""
    entry = pythonpath_entry(snap, folder)
    outside = entry is not None and not is_within(snap, entry.path, snap.interpreter.prefix)
    return outside or is_user_site(snap, folder)


def under_pythonpath(snap: Snapshot, path: str) -> bool:
    """True when ``path`` lies in a PYTHONPATH entry outside the environment."""
    prefix = snap.interpreter.prefix
    return any(e.exists and is_within(snap, path, e.path) and not is_within(snap, e.path, prefix)
               for e in snap.python_path)


def path_python(path: str) -> Optional[Tuple[int, int]]:
    """The Python version a folder's name says it is for (``lib/python3.9/site-packages``,
    ``Python39\\site-packages``, ``python2.7/dist-packages``), or None."""
    hits = _PY_IN_PATH.findall(path)
    if not hits:
        return None
    major, minor = hits[-1]
    return int(major), int(minor)


def tag_python(tag: str) -> Optional[Tuple[int, int]]:
    """(3, 9) for ``cpython-39`` / ``cp39`` / ``cp39-cp39-linux_x86_64``; None for abi3 and
    anything else."""
    low = tag.lower()
    if "abi3" in low.split("-") or low.endswith(".abi3"):
        return None  # the stable ABI: one build for this minor version and every later one
    m = _ABI_TAG.match(low)
    return (int(m.group(1)), int(m.group(2))) if m else None


def ours(snap: Snapshot) -> Optional[Tuple[int, int]]:
    vi = snap.interpreter.version_info
    return (vi[0], vi[1]) if len(vi) >= 2 else None


def base_python(snap: Snapshot) -> str:
    """The base interpreter of a venv, by the layout every installer uses: its pip is the one
    that may remove user-site packages (a venv's pip refuses what lies outside the venv)."""
    interp = snap.interpreter
    mod = pathmod(snap)
    if snap.host.os == "windows":
        return str(mod.join(interp.base_prefix, "python.exe"))
    v = ours(snap)
    return str(mod.join(interp.base_prefix, "bin", f"python{v[0]}.{v[1]}" if v else "python3"))
