"""A virtual Windows file tree: the loader model's file-system seam over files that only
exist as wheel members, system-profile names and the base interpreter's folder.

Lookups are case-insensitive (NTFS), paths are spelled with ``ntpath`` whatever the host,
and each file carries the header facts the loader needs, so :class:`WindowsProcess` runs on
it exactly as on a real disk.
"""

from __future__ import annotations

import ntpath
from dataclasses import dataclass
from typing import Dict, Iterator, Optional, Tuple

from dldoctor.binary import BinaryFormatError, BinaryInfo
from dldoctor.loader.graph import PathModule

SYSTEM = "(system)"
PYTHON = "(python)"


@dataclass(frozen=True)
class VirtualFile:
    """One file of the tree. ``owner``: a distribution name, :data:`SYSTEM` or :data:`PYTHON`;
    ``content``: what identifies its bytes (size and CRC of the wheel member), None when unknown."""

    path: str
    owner: str
    info: Optional[BinaryInfo] = None
    error: Optional[str] = None
    content: Optional[Tuple[int, int]] = None

    @property
    def version(self) -> Optional[str]:
        return self.info.file_version if self.info else None


def stub(path: str, version: Optional[str] = None) -> BinaryInfo:
    """Header facts of a system file we know by name only: an x64 DLL whose own imports are
    all system DLLs (so the model need not follow them)."""
    return BinaryInfo(path=path, format="pe", machine="x86_64", bits=64, kind="dll", soname=None,
                      needed=(), file_version=version)


class VirtualTree:
    """The :class:`~dldoctor.loader.graph.FileSystem` of a virtual install."""

    pathmod: PathModule = ntpath

    def __init__(self) -> None:
        self._files: Dict[str, VirtualFile] = {}
        self._folders: Dict[str, Dict[str, str]] = {}

    def add(self, file: VirtualFile) -> None:
        key = ntpath.normcase(file.path)
        self._files[key] = file
        folder, name = ntpath.split(file.path)
        self._folders.setdefault(ntpath.normcase(folder), {})[name.lower()] = file.path

    def get(self, path: str) -> Optional[VirtualFile]:
        return self._files.get(ntpath.normcase(path))

    def files(self) -> Iterator[VirtualFile]:
        return iter(self._files.values())

    def find(self, folder: str, name: str) -> Optional[str]:
        return self._folders.get(ntpath.normcase(folder), {}).get(name.lower())

    def is_file(self, path: str) -> bool:
        return ntpath.normcase(path) in self._files

    def is_dir(self, folder: str) -> bool:
        """A folder that directly holds a file of the tree."""
        return ntpath.normcase(folder) in self._folders

    def realpath(self, path: str) -> str:
        file = self.get(path)
        return file.path if file else path

    def read(self, path: str) -> BinaryInfo:
        """The loader's ``read`` seam: the file's headers, or the reason they are unknown."""
        file = self.get(path)
        if file is None:
            raise BinaryFormatError(f"{path}: not in the virtual tree")
        if file.info is None:
            raise BinaryFormatError(file.error or "headers unreadable")
        return file.info
