"""Scrub matched lines before they are shown: logs carry tokens and home folders.

A pasted CI log may hold an access token on the line next to the traceback; dldoctor echoes
matched lines back, so it must never echo a secret or a user name. Secrets become
``<redacted>``; home folders (this machine's, and the usual /home/NAME, /Users/NAME,
C:\\Users\\NAME shapes of other machines) become ``~``.
"""

from __future__ import annotations

import re
from typing import List, Optional, Pattern, Tuple

from dldoctor.redact import redact_home

REDACTED = "<redacted>"

_SECRETS: List[Tuple[Pattern[str], str]] = [
    # key = value / key: value for names that say "secret"
    (
        re.compile(
            r"(?i)\b((?:[\w-]*?(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|"
            r"private[_-]?key|auth))[\"']?\s*[:=]\s*[\"']?)([^\s\"',;]+)"
        ),
        r"\1" + REDACTED,
    ),
    (re.compile(r"(?i)\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/=-]{12,}"), r"\1 " + REDACTED),
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@"), r"\1" + REDACTED + "@"),
    (
        re.compile(r"\b(?:hf|ghp|gho|ghs|ghu|github_pat|glpat|xox[abpr])_[A-Za-z0-9_-]{16,}"),
        REDACTED,
    ),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{20,}"), REDACTED),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"), REDACTED),
]

_HOMES = re.compile(r"(?i)(?:/home/[^/\s\"']+|/Users/[^/\s\"']+|\b[a-z]:[\\/]+Users[\\/]+[^\\/\s\"']+)")


def redact(text: str, home: Optional[str] = None) -> str:
    """Secrets out, home folders as ``~`` (this machine's, ``home``, and any
    /home/NAME, /Users/NAME or C:\\Users\\NAME of the machine the log came from)."""
    for pattern, repl in _SECRETS:
        text = pattern.sub(repl, text)
    text = redact_home(text, (home,) if home else ())
    return _HOMES.sub("~", text)
