"""Make output safe to paste into a public issue: secrets hidden, home folders as ``~``.

One pass, :func:`redact_output`, runs over every rendered output of every command (text,
JSON, Markdown, SARIF; stdout, ``-o`` files and error lines), after rendering: whatever a
probed module's exception, a pasted log or an environment variable carried, and whatever
escaping the renderer applied, the text that leaves is scanned once more.

Secret shapes live in ``render/secrets.json``, one table shared with the collector, which
redacts environment values inside the target before they leave it.

Home folders: this machine's and the target's, each as given and as its real path (a
symlinked home shows up resolved in ``sys.prefix``), each also as JSON writes it
(``\\u00e9`` for non-ASCII, doubled backslashes), as a ``file:`` URI writes it
(percent-encoded) and as ``ascii()`` writes it.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Pattern, Set, Tuple
from urllib.parse import quote

REDACTED = "<redacted>"
_TABLE = Path(__file__).parent / "render" / "secrets.json"


@lru_cache(maxsize=1)
def _table() -> Dict[str, Any]:
    data: Dict[str, Any] = json.loads(_TABLE.read_text(encoding="utf-8"))
    return data


def secret_table() -> Dict[str, List[str]]:
    """The pattern table as the collector receives it in its config (patterns only)."""
    data = _table()
    return {
        "names": [n["pattern"] for n in data["names"]],
        "not_names": list(data["not_names"]),
        "values": [v["pattern"] for v in data["values"]],
    }


@lru_cache(maxsize=1)
def _value_patterns() -> Tuple[Tuple[Pattern[str], Tuple[str, ...]], ...]:
    return tuple((re.compile(v["pattern"]), tuple(v.get("hints", ()))) for v in _table()["values"])


def _hide(m: re.Match[str]) -> str:
    if "secret" not in m.re.groupindex or m.start("secret") < 0:
        return REDACTED
    start, end = m.start("secret") - m.start(), m.end("secret") - m.start()
    return m.group(0)[:start] + REDACTED + m.group(0)[end:]


def redact_secrets(text: str) -> str:
    """Every secret shape of the shared table replaced with ``<redacted>``."""
    lower = ""
    for pattern, hints in _value_patterns():
        if hints:  # a case-insensitive scan costs ~30 ns a character: only where it can match
            lower = lower or text.lower()
            if not any(h in lower for h in hints):
                continue
        new = pattern.sub(_hide, text)
        if new != text:
            text, lower = new, ""
    return text


def home_forms(home: str) -> Set[str]:
    """Every way ``home`` can appear in an output: as is, resolved, with / for \\, and as
    JSON, ``ascii()`` and file URIs escape it."""
    out: Set[str] = set()
    bases = {home}
    try:
        bases.add(os.path.realpath(home))
    except (OSError, ValueError):
        pass
    for base in bases:
        base = base.rstrip("/\\")
        if len(base) <= 1:
            continue
        for form in (base, base.replace("\\", "/")):
            out.update({form, json.dumps(form)[1:-1], json.dumps(form, ensure_ascii=False)[1:-1],
                        ascii(form)[1:-1], quote(form), quote(form, safe="/:")})
    return {f for f in out if len(f) > 1}


@lru_cache(maxsize=32)
def _home_pattern(homes: Tuple[str, ...]) -> Optional[Pattern[str]]:
    alts: Set[str] = set()
    for home in homes:
        if home and home != "~":
            alts.update(home_forms(home))
    if not alts:
        return None
    ordered = sorted(alts, key=len, reverse=True)
    # Only where the name ends (not /root2); where it starts is checked by _at_path_start
    # (a leading lookbehind would make sre try every position: 100x slower).
    flags = re.IGNORECASE if os.name == "nt" else 0
    return re.compile("(?:" + "|".join(map(re.escape, ordered)) + r")(?![\w.-])", flags)


def _at_path_start(text: str, i: int) -> bool:
    """Not /tmp/x/root/... when the home is /root; but file:///root/... is."""
    if i == 0:
        return True
    prev = text[i - 1]
    return not (prev.isalnum() or prev in "_./\\~-") or text.endswith("file://", 0, i)


def redact_home(text: str, extra_homes: Iterable[str] = ()) -> str:
    """Replace each home folder (this machine's and ``extra_homes``) with ``~``."""
    homes = tuple(sorted({os.path.expanduser("~"), *(h for h in extra_homes if h)}))
    pat = _home_pattern(homes)
    if pat is None:
        return text
    return pat.sub(lambda m: "~" if _at_path_start(text, m.start()) else m.group(0), text)


def redact_output(text: str, homes: Iterable[str] = ()) -> str:
    """The one pass over everything dldoctor writes: secrets, then home folders."""
    return redact_home(redact_secrets(text), homes)
