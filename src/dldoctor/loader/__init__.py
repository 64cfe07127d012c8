"""Loader models: which file each needed library name binds to, under each OS's real rules.

``resolve(path, platform, ...)`` is the one entry the CLI and the checks use; the models
themselves (:mod:`.linux`, :mod:`.windows`, :mod:`.macos`) document their search orders.
"""

from __future__ import annotations

from dldoctor.loader.graph import (
    ALREADY_LOADED,
    NOT_FOUND,
    UNREADABLE,
    WRONG_ARCHITECTURE,
    Edge,
    FileSystem,
    HostFileSystem,
    LoadGraph,
    ReadBinary,
)

__all__ = [
    "ALREADY_LOADED",
    "NOT_FOUND",
    "UNREADABLE",
    "WRONG_ARCHITECTURE",
    "Edge",
    "FileSystem",
    "HostFileSystem",
    "LoadGraph",
    "ReadBinary",
]
