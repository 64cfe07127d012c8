"""Which installed distribution owns a loaded library.

The parent answers this from outside, from the ``*.dist-info/RECORD`` files in the child's
``sys.path`` folders: RECORD is what pip wrote when it installed the files, so it names the
owner even for libraries renamed by auditwheel/delvewheel (``libgomp-a34b3233.so.1``). Only
native-library rows are resolved (a few hundred in a torch env, out of ~20,000 rows), and a
library under a site folder but missing from every RECORD still gets the distribution that
owns its top-level folder.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Optional, Tuple

_NATIVE = re.compile(r"\.(so(\.[0-9.]+)?|pyd|dll|dylib)$", re.IGNORECASE)
STDLIB = "python"  # owner label for the interpreter's own extension modules
_DIST_NAME = re.compile(r"^(?P<name>.+?)-[^-]+\.dist-info$")


def _norm(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def is_native(path: str) -> bool:
    """A shared library or extension module by its file name (.so.N, .pyd, .dll, .dylib)."""
    return bool(_NATIVE.search(path))


@dataclass(frozen=True)
class OwnerIndex:
    """Real path of each native library -> owning distribution, plus top-level folders."""

    by_path: Dict[str, str] = field(default_factory=dict)
    by_top: Dict[Tuple[str, str], str] = field(default_factory=dict)  # (site dir, top) -> dist
    natives: Dict[str, Tuple[str, ...]] = field(default_factory=dict)  # dist -> its libs
    sites: Tuple[str, ...] = ()
    stdlib: Tuple[str, ...] = ()  # the interpreter's own extension folders (lib-dynload)

    def owner(self, path: str) -> Optional[str]:
        """The distribution that installed ``path``, or None (system / interpreter / unknown)."""
        key = _norm(path)
        hit = self.by_path.get(key)
        if hit is not None:
            return hit
        if str(Path(key).parent) in self.stdlib:
            return STDLIB
        for site in self.sites:
            prefix = site.rstrip(os.sep) + os.sep
            if key.startswith(prefix):
                top = key[len(prefix):].split(os.sep, 1)[0]
                return self.by_top.get((site, top))
        return None


def _dist_name(dist_info: Path) -> str:
    metadata = dist_info / "METADATA"
    try:
        with metadata.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("Name:"):
                    return line.split(":", 1)[1].strip()
                if not line.strip():
                    break
    except OSError:
        pass
    m = _DIST_NAME.match(dist_info.name)
    return m.group("name") if m else dist_info.name


def build_owner_index(site_dirs: Iterable[str]) -> OwnerIndex:
    """Read every RECORD under ``site_dirs``; unreadable or broken ones are skipped."""
    by_path: Dict[str, str] = {}
    by_top: Dict[Tuple[str, str], str] = {}
    natives: Dict[str, Tuple[str, ...]] = {}
    sites = []
    stdlib = []
    for raw in dict.fromkeys(site_dirs):
        if not raw or not Path(raw).is_dir():
            continue
        site = _norm(raw)
        if Path(site).name == "lib-dynload":
            stdlib.append(site)
            continue
        sites.append(site)
        try:
            entries = list(os.scandir(site))
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith(".dist-info"):
                continue
            record = Path(entry.path) / "RECORD"
            try:
                with record.open(encoding="utf-8", errors="replace", newline="") as fh:
                    rows = list(csv.reader(fh))
            except (OSError, csv.Error):
                continue
            name = _dist_name(Path(entry.path))
            libs = []
            for row in rows:
                if not row or not row[0]:
                    continue
                rel = row[0]
                top = rel.replace("\\", "/").split("/", 1)[0]
                if not top.endswith((".dist-info", "..")) and top != "..":
                    by_top.setdefault((site, os.path.normcase(top)), name)
                if is_native(rel):
                    real = _norm(str(Path(site) / rel))
                    by_path[real] = name
                    libs.append(real)
            natives[name] = tuple(libs)
    return OwnerIndex(by_path, by_top, natives, tuple(sites), tuple(stdlib))
