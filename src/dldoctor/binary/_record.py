"""The value the binary readers return, and the one error they raise.

Kept apart from the readers so that each format module can build a record
without importing the dispatcher (and the stdlib-only collector can import
the whole package inside a foreign interpreter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Tuple


class BinaryFormatError(ValueError):
    """A file that is not a readable ELF / PE / Mach-O: truncated, hostile or unknown.

    The message is one line naming the problem, so that it can become a
    finding's evidence as it stands.
    """


@dataclass(frozen=True)
class BinaryInfo:
    """What a dynamic loader needs to know about one binary, read from headers only."""

    path: str
    format: str
    machine: str
    bits: int
    kind: str
    soname: str | None
    needed: Tuple[str, ...]
    delay_needed: Tuple[str, ...] = ()
    rpath: Tuple[str, ...] = ()
    runpath: Tuple[str, ...] = ()
    version_needs: Tuple[Tuple[str, str], ...] = ()
    version_defs: Tuple[str, ...] = ()
    file_version: str | None = None
    archs: Tuple[str, ...] = ()

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready value: tuples become lists."""
        return {
            "path": self.path,
            "format": self.format,
            "machine": self.machine,
            "bits": self.bits,
            "kind": self.kind,
            "soname": self.soname,
            "needed": list(self.needed),
            "delay_needed": list(self.delay_needed),
            "rpath": list(self.rpath),
            "runpath": list(self.runpath),
            "version_needs": [[f, v] for f, v in self.version_needs],
            "version_defs": list(self.version_defs),
            "file_version": self.file_version,
            "archs": list(self.archs),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BinaryInfo:
        """Inverse of :meth:`to_dict`; optional fields may be absent (older snapshots)."""

        def strs(key: str) -> Tuple[str, ...]:
            return tuple(str(x) for x in d.get(key) or ())

        soname = d.get("soname")
        file_version = d.get("file_version")
        return cls(
            path=str(d["path"]),
            format=str(d["format"]),
            machine=str(d["machine"]),
            bits=int(d["bits"]),
            kind=str(d["kind"]),
            soname=None if soname is None else str(soname),
            needed=strs("needed"),
            delay_needed=strs("delay_needed"),
            rpath=strs("rpath"),
            runpath=strs("runpath"),
            version_needs=tuple((str(f), str(v)) for f, v in d.get("version_needs") or ()),
            version_defs=strs("version_defs"),
            file_version=None if file_version is None else str(file_version),
            archs=strs("archs"),
        )
