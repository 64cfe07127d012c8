"""Wheels of a set that install the same file with different content: pip writes them one
after the other, so the package installed last silently replaces the other's file
(opencv-python beside opencv-python-headless: both write cv2\\cv2.pyd). Read from the wheels'
member lists (names, sizes, CRCs): no file is extracted."""

from __future__ import annotations

import itertools
from typing import Dict, Iterator, List, Tuple

from dldoctor.checks import finding
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Snapshot
from dldoctor.wheelset.install import VirtualInstall

SHOWN = 3  # files named per pair


def overlaps(vi: VirtualInstall, snap: Snapshot) -> Iterator[Finding]:
    """One duplicate-install per pair of wheels that write different bytes to one path. Files
    with the same bytes (a namespace package's empty __init__.py in every nvidia-* wheel) and
    the metadata folders are not a conflict."""
    owners: Dict[str, List[Tuple[str, str, Tuple[int, int]]]] = {}  # folded path -> (dist, path, content)
    for w in vi.wheels:
        for m in w.members:
            if ".dist-info\\" in m.path.lower() or "__pycache__" in m.path:
                continue
            owners.setdefault(m.path.lower(), []).append((w.name, m.path, (m.size, m.crc)))
    pairs: Dict[Tuple[str, str], List[str]] = {}
    for found in owners.values():
        for (d1, path, c1), (d2, _, c2) in itertools.combinations(found, 2):
            if d1 != d2 and c1 != c2:
                first, second = sorted((d1, d2))
                pairs.setdefault((first, second), []).append(path)
    site = vi.layout.site_packages.lower() + "\\"
    for (first, second), paths in sorted(pairs.items()):
        shown = [p[len(site):] if p.lower().startswith(site) else p for p in sorted(paths)[:SHOWN]]
        yield finding(
            "duplicate-install",
            f"{first} and {second} both install {len(paths)} file(s) with different content "
            f"({', '.join(shown)}{', ...' if len(paths) > SHOWN else ''}): the one installed last replaces "
            "the other's, and either package's code may then run against the other's files",
            [("package", first), ("package", second), *(("file", p) for p in shown)],
            fix=f"Install only one of {first} and {second}.",
            snapshot=snap,
            severity=Severity.WARNING,  # the import works today; uninstalling or upgrading either breaks the other
        )
