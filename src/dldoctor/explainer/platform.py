"""Which OS a pasted text comes from, read from its own words (a WinError, a .dylib, an ELF .so).

Its own module so that both matching (release regressions are per platform) and the report
(which platform's fix to show) use one reading."""

from __future__ import annotations

import re
from typing import Optional

_STRONG = (
    ("windows", re.compile(r"\[WinError \d{1,6}\]|\bDLL load failed|\.dll\b|\.pyd\b")),
    ("macos", re.compile(r"\.dylib\b|\bdyld\b|-darwin\.so\b")),
    ("linux", re.compile(r"\.so(?:\.\d{1,6}){0,6}:|-linux-gnu\.so\b|\bGLIBC(?:XX)?_\d")),
)
WEAK = (
    ("windows", re.compile(r"[A-Za-z]:\\|\\site-packages\\")),
    ("macos", re.compile(r"/Users/|/Library/Frameworks/")),
    ("linux", re.compile(r"/home/|/usr/(?:local/)?lib|/opt/conda")),
)


def text_platform(text: str) -> Optional[str]:
    """The OS the text unmistakably comes from (a WinError, a .dylib, an ELF .so), if any."""
    for name, pattern in _STRONG:
        if pattern.search(text):
            return name
    return None
