"""Parse a snapshot file with its home placeholder restored on the JSON text itself.

:func:`~dldoctor.snapshot.collect.unredact_home` walks the parsed tree in Python, which
costs more than parsing it (a torch environment's snapshot holds ~10,000 values; ``fleet``
reads thousands of files). Substituting on the text lets the C parser build the final
tree. The text and the strings it encodes agree about each ``~``'s neighbours except next
to an escape (``\\n~``, ``\\u00e9~``, ``\\u007e`` itself), so such a file, and any file
whose meaning this cannot settle from the text, takes the tree walk: the result is always
exactly ``unredact_home(json.loads(raw))``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, Optional, Tuple

from dldoctor.snapshot.collect import PLACEHOLDER_HOME

# collect._TILDE on the encoded text: a string's end is its closing quote, and a backslash
# or slash after the ~ is written \\, \/ or /. Before the ~, \\ ends in a backslash and \"
# in a quote, as decoded; every other escape is _UNSURE.
# Both start with the literal ~, which the regex engine finds by a fast scan (a pattern that
# starts with a look-behind is tried at every character: 10 ms for a 250 KB file).
_RAW_TILDE = re.compile(r'~(?<![\w./\\~-]~)(?="|/|\\\\|\\/)')
_UNSURE = re.compile(r'~(?:(?<=\\[bfnrt]~)|(?=\\[bfnrt])|(?=home~))')  # or the placeholder itself
_ENCODED = {kind: json.dumps(home)[1:-1] for kind, home in PLACEHOLDER_HOME.items()}


def loads_restored(raw: bytes) -> Optional[Dict[str, Any]]:
    """``unredact_home(json.loads(raw))``, or None when the text does not settle it (no
    object, a ``~`` replaced but another home, an escape next to a ``~``, text that does
    not parse): the caller then parses and walks as before, errors included."""
    try:
        text = raw.decode(json.detect_encoding(raw), "surrogatepass")  # as json.loads(bytes) does
    except (UnicodeDecodeError, LookupError):
        return None
    if _has_u_escape(text) or _UNSURE.search(text):
        return None
    data, count = _parse(text, "other")
    if data is None:
        return None
    if not count:  # no string holds a ~ the walk would replace: its result is the parse
        return data
    raw_host = data.get("host")
    host: Dict[str, Any] = raw_host if isinstance(raw_host, dict) else {}
    if host.get("os") == "windows":  # the os has no ~: the same in both parses
        data, count = _parse(text, "windows")
        if data is None:
            return None
        raw_host = data.get("host")
        host = raw_host if isinstance(raw_host, dict) else {}
    # The home read back is the placeholder only where it was "~" ("~home~" is not in the
    # text), or absent; either way unredact_home would have walked, with this placeholder.
    if host.get("home") not in (PLACEHOLDER_HOME["windows" if host.get("os") == "windows" else "other"], None):
        return None
    return data


def _parse(text: str, kind: str) -> Tuple[Optional[Dict[str, Any]], int]:
    """The object ``text`` holds with ~ restored to ``kind``'s placeholder, and how many
    were; None for text that does not parse or is no object."""
    encoded = _ENCODED[kind]
    restored, count = _RAW_TILDE.subn(lambda _: encoded, text)
    try:
        data = json.loads(restored)
    except (ValueError, RecursionError):
        return None, count
    return (data if isinstance(data, dict) else None), count


def _has_u_escape(text: str) -> bool:
    """Whether ``text`` holds a \\uXXXX escape: a backslash-u whose run of backslashes is
    odd (``\\\\u`` is an escaped backslash, then u)."""
    at = text.find("\\u")
    while at >= 0:
        start = at
        while start and text[start - 1] == "\\":
            start -= 1
        if (at - start) % 2 == 0:
            return True
        at = text.find("\\u", at + 2)
    return False
