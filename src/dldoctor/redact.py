"""Make output safe to paste into a public issue: home folders become ``~``.

Secrets in environment variables are removed at the source (the collector), so only
paths remain to be shortened here, for this machine's home and the snapshot's own.
"""

from __future__ import annotations

import os
import re
from typing import Iterable, List


def home_pattern(homes: Iterable[str]) -> re.Pattern[str] | None:
    alts: List[str] = []
    for home in {h.rstrip("/\\") for h in homes if h and len(h.rstrip("/\\")) > 1}:
        variants = {home, home.replace("\\", "/"), home.replace("\\", "\\\\")}
        alts.extend(re.escape(v) for v in variants)
    if not alts:
        return None
    alts.sort(key=len, reverse=True)
    # Only at the start of a path: not /tmp/x/root/... when the home is /root.
    start = r"(?<![\w./\\~-])"
    end = r"(?=$|[\\/\"'\s:;,)\]])"
    return re.compile(start + "(?:" + "|".join(alts) + ")" + end, re.IGNORECASE if os.name == "nt" else 0)


def redact_home(text: str, extra_homes: Iterable[str] = ()) -> str:
    """Replace each home folder (followed by a separator or the end) with ``~``."""
    pat = home_pattern([os.path.expanduser("~"), *extra_homes])
    return pat.sub("~", text) if pat else text
