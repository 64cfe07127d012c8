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
from typing import Any, Dict, Optional

from dldoctor.snapshot.collect import PLACEHOLDER_HOME

# collect._TILDE on the encoded text: a string's end is its closing quote, and a backslash
# or slash after the ~ is written \\, \/ or /. Before the ~, \\ ends in a backslash and \"
# in a quote, as decoded; every other escape is _UNSURE.
# Both start with the literal ~, which the regex engine finds by a fast scan (a pattern that
# starts with a look-behind is tried at every character: 10 ms for a 250 KB file).
_RAW_TILDE = re.compile(r'~(?<![\w./\\~-]~)(?="|/|\\\\|\\/)')
_UNSURE = re.compile(r'~(?:(?<=\\[bfnrt]~)|(?=\\[bfnrt]))')
_U_ESCAPE = re.compile(r'(?:^|[^\\])(?:\\\\)*\\u')  # a \uXXXX escape (an odd run of backslashes)
_WINDOWS = re.compile(r'"os"\s*:\s*"windows"')
_ENCODED = {kind: json.dumps(home)[1:-1] for kind, home in PLACEHOLDER_HOME.items()}


def loads_restored(raw: bytes) -> Optional[Dict[str, Any]]:
    """``unredact_home(json.loads(raw))``, or None when the text does not settle it (no
    object, a ``~`` replaced but another home, an escape next to a ``~``, text that does
    not parse): the caller then parses and walks as before, errors included."""
    try:
        text = raw.decode(json.detect_encoding(raw), "surrogatepass")  # as json.loads(bytes) does
    except (UnicodeDecodeError, LookupError):
        return None
    if ("\\u" in text and _U_ESCAPE.search(text)) or "~home~" in text or _UNSURE.search(text):
        return None
    kind = "windows" if _WINDOWS.search(text) else "other"
    encoded = _ENCODED[kind]
    try:
        restored, count = _RAW_TILDE.subn(lambda _: encoded, text)
        data = json.loads(restored)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    if not count:  # no string holds a ~ the walk would replace: its result is the parse
        return data
    raw_host = data.get("host")
    host: Dict[str, Any] = raw_host if isinstance(raw_host, dict) else {}
    # The home read back is the placeholder only where it was "~" ("~home~" is not in the
    # text), or absent; either way unredact_home would have walked, with this placeholder.
    if host.get("home") not in (PLACEHOLDER_HOME[kind], None):
        return None
    if ("windows" if host.get("os") == "windows" else "other") != kind:
        return None
    return data
