"""A wheel read as pip would install it, without installing: where each member would land.

pip's layout (the wheel spec, "Installing a wheel"): root members go to purelib or platlib
(both site-packages in a venv), ``<name>-<ver>.data/<scheme>/...`` members go to that scheme's
folder (purelib/platlib: site-packages, scripts: Scripts, data: the prefix itself, headers:
Include\\<name>). Only the zip's central directory is read here; member data is read only for
native libraries (:mod:`dldoctor.wheelset.extract`) and a few small text files.
"""

from __future__ import annotations

import ntpath
import os
import re
import struct
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from dldoctor.errors import DldoctorError
from dldoctor.inputs import check_regular
from dldoctor.loader.pysteps import SourceSteps, imported_siblings, read_steps

NATIVE_SUFFIXES = (".dll", ".pyd")
MAX_TEXT = 1 << 20
#: zipfile builds an object per member (~600 bytes) before anything can be judged; torch's
#: wheel has 13,110 members, so 100,000 is far above any real wheel and caps that at 60 MB.
MAX_MEMBERS = 100_000
_EOCD = struct.Struct("<4s4H2IH")  # end of central directory record
_ZIP64_LOCATOR = struct.Struct("<4sIQI")
_ZIP64_EOCD = struct.Struct("<4sQ2H2I4Q")


def member_count(path: str) -> Optional[int]:
    """The member count a zip's end-of-central-directory record declares (ZIP64 too), read
    from its last 64 KiB; None when there is no such record (zipfile then says why)."""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        tail_at = max(0, size - (1 << 16) - _EOCD.size)
        fh.seek(tail_at)
        tail = fh.read()
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or at + _EOCD.size > len(tail):
            return None
        count = _EOCD.unpack_from(tail, at)[4]
        loc_at = at - _ZIP64_LOCATOR.size
        if count == 0xFFFF and loc_at >= 0 and tail[loc_at:loc_at + 4] == b"PK\x06\x07":
            eocd64 = _ZIP64_LOCATOR.unpack_from(tail, loc_at)[2]
            fh.seek(eocd64)
            raw = fh.read(_ZIP64_EOCD.size)
            if len(raw) == _ZIP64_EOCD.size and raw[:4] == b"PK\x06\x06":
                count = _ZIP64_EOCD.unpack(raw)[7]
        return int(count)


@dataclass(frozen=True)
class Layout:
    """The folders of a virtual Windows venv (python.org base interpreter)."""

    prefix: str = "C:\\venv"
    base_prefix: str = "C:\\Python311"
    windows: str = "C:\\Windows"

    @property
    def site_packages(self) -> str:
        return ntpath.join(self.prefix, "Lib", "site-packages")

    @property
    def system32(self) -> str:
        return ntpath.join(self.windows, "System32")

    def scheme(self, key: str, dist: str) -> Optional[str]:
        return {
            "purelib": self.site_packages,
            "platlib": self.site_packages,
            "scripts": ntpath.join(self.prefix, "Scripts"),
            "data": self.prefix,
            "headers": ntpath.join(self.prefix, "Include", dist),
        }.get(key)


@dataclass(frozen=True)
class Member:
    """One file of a wheel and where pip would install it."""

    wheel: str  # the wheel file on this machine
    name: str  # the zip member name
    path: str  # the installed (virtual, Windows) path
    size: int
    crc: int

    @property
    def native(self) -> bool:
        return self.name.lower().endswith(NATIVE_SUFFIXES)


@dataclass(frozen=True)
class Wheel:
    """A wheel's identity, metadata and installed layout."""

    file: str
    name: str
    version: str
    tags: Tuple[str, ...]
    requires: Tuple[str, ...]
    top_level: Tuple[str, ...]
    metadata_dir: str
    members: Tuple[Member, ...]


def _requires(zf: zipfile.ZipFile, dist_info: str) -> Tuple[str, ...]:
    try:
        with zf.open(f"{dist_info}/METADATA") as fh:
            text = fh.read(MAX_TEXT).decode("utf-8", "replace")
    except KeyError:
        return ()
    return tuple(HeaderParser().parsestr(text).get_all("Requires-Dist") or ())


def read_wheel(path: str, layout: Layout) -> Wheel:
    """The members of the wheel at ``path`` placed as pip would place them under ``layout``."""
    file = Path(path).name
    try:
        name, version, _build, tags = parse_wheel_filename(file)
    except InvalidWheelFilename as exc:
        raise DldoctorError(f"{path}: not a wheel file name ({exc})") from None
    check_regular(path)  # a FIFO named *.whl would block the open forever
    try:
        count = member_count(path)
        if count is not None and count > MAX_MEMBERS:
            raise DldoctorError(f"{path}: the archive declares {count} members (no real wheel has more than "
                                f"{MAX_MEMBERS}): not read")
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise DldoctorError(f"{path}: cannot read the wheel ({exc})") from None
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        dist_info = next((n.split("/")[0] for n in (i.filename for i in infos)
                          if re.match(r"^[^/]+\.dist-info/WHEEL$", n)), f"{name}-{version}.dist-info")
        requires = _requires(zf, dist_info)
        members: List[Member] = []
        tops: Dict[str, None] = {}
        for info in infos:
            parts = info.filename.split("/")
            if any(p in ("", ".", "..") for p in parts) or ":" in info.filename or "\\" in info.filename:
                continue  # pip refuses such members too (path traversal)
            if parts[0].endswith(".data") and len(parts) > 2:
                folder = layout.scheme(parts[1], str(name))
                if folder is None:
                    continue
                rel = parts[2:]
            else:
                folder, rel = layout.site_packages, parts
                if not parts[0].endswith((".dist-info", ".data")):
                    tops[parts[0][:-3] if parts[0].endswith(".py") and len(parts) == 1 else parts[0]] = None
            members.append(Member(path, info.filename, ntpath.join(folder, *rel), info.file_size, info.CRC))
    return Wheel(
        file=path,
        name=str(canonicalize_name(name)),
        version=str(version),
        tags=tuple(sorted(str(t) for t in tags)),
        requires=requires,
        top_level=tuple(t for t in tops if not t.endswith((".pth",))),
        metadata_dir=ntpath.join(layout.site_packages, dist_info),
        members=tuple(members),
    )


def read_text_member(wheel: str, member: str) -> Optional[str]:
    """A small text member (a version file), or None."""
    try:
        with zipfile.ZipFile(wheel) as zf, zf.open(member) as fh:
            return fh.read(MAX_TEXT).decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def source_steps(wheel: Wheel) -> SourceSteps:
    """What the wheel's packages do to the DLL search at import, read from their own
    ``__init__.py`` and the sibling modules it imports (never run): see loader.pysteps."""
    return _source_steps(wheel.file, wheel.top_level)


@lru_cache(maxsize=64)
def _source_steps(file: str, tops: Tuple[str, ...]) -> SourceSteps:
    sources: List[Tuple[str, str]] = []
    try:
        with zipfile.ZipFile(file) as zf:
            names = set(zf.namelist())

            def text(member: str) -> Optional[str]:
                if member not in names or zf.getinfo(member).file_size > MAX_TEXT:
                    return None
                return zf.read(member).decode("utf-8", "replace")

            for top in tops:
                init = f"{top}/__init__.py"
                body = text(init)
                if body is None:
                    continue
                sources.append((init, body))
                for sib in imported_siblings(init, body):
                    sib_body = text(sib)
                    if sib_body is not None:
                        sources.append((sib, sib_body))
    except (OSError, KeyError, zipfile.BadZipFile, RuntimeError):
        return SourceSteps()
    return read_steps(sources)
