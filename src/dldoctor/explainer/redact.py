"""Scrub matched lines before they are shown: logs carry tokens and home folders.

A pasted CI log may hold an access token on the line next to the traceback; dldoctor echoes
matched lines back, so it must never echo a secret or a user name. Secrets become
``<redacted>`` (the shared table of ``dldoctor.redact``); home folders (this machine's, and
the usual /home/NAME, /Users/NAME, C:\\Users\\NAME shapes of the machine the log came from)
become ``~``. The CLI's output pass runs again over the whole rendering; this one keeps the
library's ``explain()`` values clean too.
"""

from __future__ import annotations

import re
from typing import Optional

from dldoctor.redact import REDACTED, redact_home, redact_secrets

__all__ = ["REDACTED", "redact"]

_HOMES = re.compile(r"(?i)(?:/home/[^/\s\"']+|/Users/[^/\s\"']+|\b[a-z]:[\\/]+Users[\\/]+[^\\/\s\"']+)")


def redact(text: str, home: Optional[str] = None) -> str:
    """Secrets out, home folders as ``~`` (this machine's, ``home``, and any
    /home/NAME, /Users/NAME or C:\\Users\\NAME of the machine the log came from)."""
    text = redact_home(redact_secrets(text), (home,) if home else ())
    return _HOMES.sub("~", text)
