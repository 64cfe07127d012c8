"""Which OS a pasted text comes from, read from its own words (a WinError, a .dylib, an ELF .so).

Its own module so that both matching (release regressions are per platform) and the report
(which platform's fix to show) use one reading."""

from __future__ import annotations

import re
from typing import FrozenSet, Optional

#: (OS, the literals one of which every match starts with, the pattern): a regex over a long log
#: costs milliseconds where a substring search costs microseconds, so the pattern starts at the
#: first hint
_STRONG = (
    ("windows", ("[WinError", "DLL load failed", ".dll", ".pyd"),
     re.compile(r"\[WinError \d{1,6}\]|\bDLL load failed|\.dll\b|\.pyd\b")),
    ("macos", (".dylib", "dyld", "-darwin.so", "no suitable image found", "Library not loaded: "),
     re.compile(r"\.dylib\b|\bdyld\b|-darwin\.so\b|no suitable image found|Library not loaded: ")),
    ("linux", (".so", "-linux-gnu.so", "GLIBC"),
     re.compile(r"\.so(?:\.\d{1,6}){0,6}:|-linux-gnu\.so\b|\bGLIBC(?:XX)?_\d")),
)
WEAK = (
    ("windows", re.compile(r"[A-Za-z]:\\|\\site-packages\\")),
    ("macos", re.compile(r"/Users/|/Library/Frameworks/")),
    ("linux", re.compile(r"/home/|/usr/(?:local/)?lib|/opt/conda")),
)


#: how people name an OS ("Windows 10 64bit", "Ubuntu 20.04", "macOS Ventura", "WSL2") -> its family.
#: Linux first: "Ubuntu on WSL2 (Windows 11)" and "Linux (Windows dual boot)" run Linux binaries.
_FAMILIES = (
    ("linux", re.compile(r"linux|ubuntu|debian|cent\s?os|fedora|red\s?hat|\brhel|\barch\b|manjaro|suse|\bsles\b|"
                         r"\bwsl|raspbian|raspberry pi os|\bmint\s?\d|rocky|\balma|alpine|gentoo|pop!?_os|"
                         r"\bl4t\b|jetpack",
                         re.IGNORECASE)),
    ("macos", re.compile(r"\bmac\s?os|\bos\s?x\b|\bdarwin\b|\bmac\b|macbook|\bimac\b|apple silicon", re.IGNORECASE)),
    ("windows", re.compile(r"\bwin(?:dows|\d{1,2}\b|32\b|64\b|_|server|\b)", re.IGNORECASE)),
)


def os_family(name: Optional[str]) -> Optional[str]:
    """``windows``, ``linux`` or ``macos`` for the way a person or a snapshot names an OS; None
    when the name says none of them. Evidence rules and the "text from another OS" test compare
    families: "windows 10 64bit" is Windows."""
    if not name:
        return None
    for family, pattern in _FAMILIES:
        if pattern.search(name):
            return family
    return None


def text_platform(text: str) -> Optional[str]:
    """The OS the text unmistakably comes from (a WinError, a .dylib, an ELF .so), if any."""
    for name, hints, pattern in _STRONG:
        starts = [at for at in (text.find(h) for h in hints) if at >= 0]
        if starts and pattern.search(text, min(starts)):  # no match can start before its hint
            return name
    return None


#: the CPU architecture a text shows, in its own words (a wheel's tag, uname's answer, a core, a
#: board or server sold only with 64-bit ARM cores: Raspberry Pi, Jetson, AWS Graviton, Ampere
#: Altra, the Arduino Uno Q, whose Linux side is a Qualcomm QRB2210 of Cortex-A53 cores
#: (huggingface/lerobot#3474)). Not a board family that also sells x86 or 32-bit ARM boards
#: under one name (ODROID-H3, Radxa X4, Rock Pi X, Khadas Mind, Orange Pi Zero), nor Raspbian
#: (32-bit by name). One table for every reader: which wheel platform a failed pin asked for
#: (:mod:`dldoctor.explainer.pins`) and whether an architecture-limited release entry applies
#: (:mod:`dldoctor.explainer.releases`)
_MACHINES = (
    ("aarch64", re.compile(r"\baarch64\b|\barm64\b|[Rr]aspberry|[Jj]etson|\bGraviton\d?\b|\bCortex-A\d{2}\b"
                           r"|\bARMv8|\bAmpere Altra\b|\bArduino Uno Q\b|\bUNO Q\b")),
    ("x86_64", re.compile(r"\bx86_64\b|\bx86-64\b|\b[Aa][Mm][Dd]64\b|\bx64\b")),
)


def text_machines(text: str) -> FrozenSet[str]:
    """The architectures (``x86_64``, ``aarch64``) the text names; empty when it names none.
    A regex pass over the whole text: asked only when a release-table entry limited to one
    architecture would otherwise count."""
    return frozenset(name for name, pattern in _MACHINES if pattern.search(text))
