"""A failed install of a pinned release ("No matching distribution found for torch==1.9.1"),
read against the wheel table: does that release have a wheel for the Python the report runs?

pip's refusal has two common readings, a Python the release has no wheel for
(``unsupported-python``) and something else (an index without the release or its variant, a
32-bit or another interpreter). Signatures cannot tell them apart, since the words are the same;
the release's files can:

* the release has wheels for this platform, none for this Python: ``unsupported-python`` is
  near-certain (torch 1.9.1 has Linux wheels for 3.6 to 3.9; the report runs 3.10);
* the release has no wheel for this platform at all: ``unsupported-python`` in its wider sense
  (a wheel tag this interpreter does not accept, here the platform's), as a lead.

Which Python runs is read first from pip's own list ("from versions: 2.6.0, 2.7.0, 2.7.1"): the
releases pip could install are those with a wheel for the interpreter, so the list names the
Pythons it can be (2.6.0 and later only: 3.13 on Windows), whatever the user believes ("I made
sure I was on python 3.11", trailofbits/anamorpher#5). Without a list, the machine's Python (a
snapshot, a case's facts) or the one the text names unambiguously (:func:`python_of`).

A release that *has* a wheel for the Python lowers nothing: on the corpus, 8 of 10 such reports
were still a wheel tag the interpreter refused (an old glibc on CentOS 7, a Python other than the
one the user named), which is this condition in its wider sense.

Only bounded pins are read (``==2.1.2``, ``<1.7``, ``~=1.13``): "torch>=1.2" names no release the
Python could be checked against, since a later one may have added it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from dldoctor.conditions.wheels import sdist_releases, wheel_table
from dldoctor.explainer.match import Candidate, Hit, merge
from dldoctor.explainer.platform import text_machines
from dldoctor.explainer.report import infer_platform
from dldoctor.explainer.weigh import Facts

SLUG = "unsupported-python"
SLUG_32BIT = "python-32bit"
SIGNATURE = "wheel-table"  # the hit's name: a table, not a signature, points at the cause
LACKS_PYTHON = 0.9  # the release has wheels for this platform, none for this Python
LACKS_PLATFORM = 0.5  # the release has no wheel for this platform at all
#: what of a long text the Python and the architecture are read from: its first and last
#: 128 KiB (a report's own words open it, a traceback's paths close it). Their patterns are
#: alternations a regex engine cannot skip through, so a 32 MiB paste would cost seconds.
EXCERPT = 1 << 17
MAX_PINS = 20  # places read per anchor and text: a log repeating one failure names the same few
_ANCHORS = ("matching distribution found for ", "satisfies the requirement ")
#: what follows an anchor: a distribution, its extras, its specifier (bounded: one line)
_PIN = re.compile(
    r"(?P<name>[A-Za-z0-9][A-Za-z0-9._-]{0,100})(?:\[[^\]\n]{0,100}\])?[ \t]{0,3}"
    r"(?P<spec>(?:(?:===?|~=|!=|<=?|>=?)[ \t]{0,3}[\w.*+!-]{1,60}[ \t]{0,3},?[ \t]{0,3}){1,4})?"
    r"(?:[^\n(]{0,200}\(from versions: (?P<listed>[^)\n]{0,4000})\))?"  # pip's list, on the same line
)
#: a final release in pip's list (a post-release too; the local label dropped)
_LISTED = re.compile(r"\d{1,4}(?:\.\d{1,4}){0,3}(?:\.post\d{1,4})?(?=[+,]|$)")
_LOCAL = re.compile(r"\+[\w.]{1,40}")  # a local version label: +cu118, +cpu, +rocm5.6

# The Python a text says it runs. Strong: the interpreter's own words or paths (lib/python3.10/,
# C:\Python310\, "python -V" answered, its banner, uv's "Using Python 3.11.13 environment", a
# "Python version: 3.10" field, "I use python 3.10"); weak: any "Python 3.10". The text's Python
# is the one minor all of them name; two different ones ("we recommend Python 3.10.9" beside
# "you have 3.11.1") name none. On the corpus cases whose thread confirmed the Python this
# agrees with it in 852 of 854 (tests/explainer/test_explain_pins.py keeps the floor).
_V = r"(?:2\.7|3\.\d{1,2})"
_STRONG_PY = re.compile(
    r"[Ll]ib[\\/]python(?P<a>" + _V + r")[\\/]"
    r"|[\\/]Python(?P<b>27|3\d{1,2})(?:-32)?[\\/]"
    r"|\bpython3?(?:\.exe)?[ \t]{1,3}(?:-V|--version)[ \t]{0,3}\n[ \t]{0,8}Python[ \t](?P<c>" + _V + r")"
    r"|\bPython[ \t](?P<d>" + _V + r")\.\d{1,3}[ \t]{0,3}\((?:tags|default|main|v3|heads|Anaconda|conda)"
    r"|\b[Uu]sing[ \t](?:[Cc]?[Pp]ython[ \t])?(?P<e>" + _V + r")(?:\.\d{1,3})?[ \t](?:environment|interpreter)"
    r"|\bUsing[ \t]CPython[ \t](?P<f>" + _V + r")"
    r"|\b(?<!different )[Pp]ython(?:[ \t]{0,3}[Vv]ersion)?[ \t]{0,3}[:=]{1,2}[ \t]{0,3}v?(?P<g>" + _V + r")(?!\d)"
    r"|\b(?i:i(?:'m|[ \t]am)?[ \t](?:use|using|have|on|running)|my[ \t]python[ \t](?:is|version[ \t]is)|with|on|using"
    r"|running|installed)[ \t](?:the[ \t])?(?i:python|py)[ \t]{0,2}(?P<h>" + _V + r")(?!\d)"
    r"|\bbut[ \t]you[ \t]have[ \t](?:[Pp]ython[ \t])?(?P<i>" + _V + r")"
)
_WEAK_PY = re.compile(r"\b[Pp](?:ython|YTHON)[ \t]{0,2}(?P<w>" + _V + r")(?!\d)")
_PY_HINTS = ("ython", "YTHON")

_MAC_ARM = re.compile(r"\barm64\b|[Aa]pple[ \t]?[Ss]ilicon|\bM[1-4](?:[ \t]?(?:Pro|Max|Ultra))?\b")
_MAC_X86 = re.compile(r"\bx86_64\b|\b[Ii]ntel\b")
#: a macOS before 11 (Big Sur, the first for Apple Silicon), by number ("OSX 10.13.6") or name, as
#: the report's own system: an Intel Mac unless the text names Apple Silicon too. Not a minimum
#: ("macOS 10.15 or later"): that is a requirement quoted, no machine (tensorflow/tensorflow#22041:
#: "OSX 10.13.6", Python 3.7)
_MAC_OLD = re.compile(r"(?:\b(?:[Oo][Ss] ?[Xx]|[Mm]ac ?OS(?: X)?)(?:[ \t]{1,2}[A-Z][a-z]{2,12}){0,2}"
                      r"[ \t]{0,2}10\.\d{1,2}(?:\.\d{1,2})?"
                      r"|\b(?:El Capitan|High Sierra|Mojave|Catalina|Yosemite|Mavericks))\b"
                      r"(?!\)?\s{0,3}(?:\([^)\n]{0,20}\)\s{0,3})?(?:or\s(?:later|above|newer|higher)|\+|and\s(?:later|above|newer)))")
#: a 32-bit Windows Python in the text's words: its folder (Python37-32), its banner ("32 bit (Intel)"),
#: the user's "32-bit Python". Not "win32": every Windows banner ends "on win32", 64-bit ones too
_WIN_32 = re.compile(r"Python3\d{1,2}-32\b|\b32 bit \(Intel\)|32[ -]?bit[ \t]{1,3}[Pp]ython"
                     r"|[Pp]ython[^\n]{0,20}\b32[ -]?bit")
_WIN_64 = re.compile(r"\b64 bit \(AMD64\)")


def _minor(raw: str) -> str:
    """ "310" -> "3.10", "27" -> "2.7", "3.10" as it is."""
    return raw if "." in raw else f"{raw[0]}.{raw[1:]}"


def python_of(text: str) -> Optional[str]:
    """The Python minor ("3.10") the text says it runs, when it names exactly one; else None."""
    if not any(h in text for h in _PY_HINTS) and "python" not in text:
        return None
    found: Set[str] = set()
    for m in _STRONG_PY.finditer(text):
        found.add(_minor(next(v for v in m.groupdict().values() if v)))
        if len(found) > 1:
            return None
    for m in _WEAK_PY.finditer(text):
        found.add(m.group("w"))
        if len(found) > 1:
            return None
    return next(iter(found)) if found else None


@dataclass(frozen=True)
class Pin:
    """One failed pin pip reported: the distribution, its bounded specifier (no local label),
    where it stands, and the final releases pip listed for the interpreter (None: no list)."""

    dist: str
    spec: SpecifierSet
    pos: int
    listed: Optional[FrozenSet[str]]


def pins_of(text: str) -> List[Pin]:
    """Each failed pin pip reports, for the distributions the wheel table knows."""
    table = wheel_table()
    out: Dict[Tuple[str, str], Pin] = {}
    for anchor in _ANCHORS:
        at = text.find(anchor)
        reads = 0
        while at >= 0 and reads < MAX_PINS:
            m = _PIN.match(text, at + len(anchor))
            at = text.find(anchor, at + len(anchor))
            reads += 1
            if m is None or not m.group("spec"):
                continue
            dist = canonicalize_name(m.group("name"))
            spec = _bounded(_LOCAL.sub("", m.group("spec")).replace(" ", "").replace("\t", "").rstrip(","))
            if dist not in table or spec is None:
                continue
            raw = m.group("listed")
            found = (_LISTED.match(part.strip()) for part in raw.split(",")) if raw else iter(())
            listed = frozenset(v.group(0) for v in found if v) or None
            key = (dist, str(spec))
            old = out.get(key)
            if old is None or (old.listed is None and listed is not None) or m.start() < old.pos:
                # the first place pip names the pin, and its list wherever one is given
                out[key] = Pin(dist, spec, min(m.start(), old.pos) if old else m.start(),
                               listed if listed is not None or old is None else old.listed)
    return list(out.values())


def _bounded(raw: str) -> Optional[SpecifierSet]:
    """The specifier when it has an upper bound (==, ===, <, <=, ~=). A pin of a pre-release (a
    nightly's ``2.7.0.dev20250311``) is not read: nightlies live on the framework's own index,
    are pruned from it, and their failures are rarely the Python's."""
    raw = raw.replace("===", "==")
    try:
        spec = SpecifierSet(raw)
    except InvalidSpecifier:
        return None
    for s in spec:
        if s.operator == "==" and not s.version.endswith("*"):
            try:
                if Version(s.version).is_prerelease:
                    return None
            except InvalidVersion:
                return None
    if not any(s.operator in ("==", "<", "<=", "~=") for s in spec):
        return None
    return spec


def platforms_of(text: str, os: Optional[str], bits: Optional[str]) -> Tuple[str, ...]:
    """The wheel-table platforms the report may run on: its OS, with the architecture the text
    or the machine says (both Macs when it says neither)."""
    if os == "windows":
        said_32 = bits != "64" and _WIN_32.search(text) is not None and not _WIN_64.search(text)
        return ("windows-x86",) if bits == "32" or said_32 else ("windows-x86_64",)
    if os == "linux":
        return ("linux-aarch64",) if "aarch64" in text_machines(text) else ("linux-x86_64",)
    if os == "macos":
        arm, x86 = bool(_MAC_ARM.search(text)), bool(_MAC_X86.search(text))
        x86 = x86 or (not arm and _MAC_OLD.search(text) is not None)
        if arm != x86:
            return ("macos-arm64",) if arm else ("macos-x86_64",)
        return ("macos-arm64", "macos-x86_64")
    return ()


@lru_cache(maxsize=4096)
def _version(raw: str) -> Version:
    return Version(raw)


@lru_cache(maxsize=256)
def allowed(dist: str, spec: SpecifierSet) -> FrozenSet[str]:
    """The releases of ``dist`` on any platform of the table that ``spec`` allows (once per pin:
    the verdict of every Python and platform and the reason shown read them)."""
    return frozenset(r for rows in wheel_table()[dist].values() for r in rows
                     if spec.contains(_version(r), prereleases=True))


def verdict(dist: str, spec: SpecifierSet, python: str, platform: str) -> Optional[str]:
    """"has", "lacks-python" or "lacks-platform" for the releases ``spec`` allows on
    ``platform``; None when the table knows none of them (a release it does not list), when one
    has a source distribution (pip would build it, not refuse it), or when
    the platform had no wheel on PyPI *yet* (torch's Windows wheels before 1.7 were on
    download.pytorch.org only: PyPI's lack is then no fact about the interpreter)."""
    releases = allowed(dist, spec)
    if not releases or releases & sdist_releases().get(dist, frozenset()):
        return None  # a release the table does not know, or one pip would build from source
    rows = wheel_table()[dist].get(platform, {})
    here: Dict[str, FrozenSet[str]] = {r: p for r, p in rows.items() if r in releases}
    if any(python in pys for pys in here.values()):
        return "has"
    if here:
        return "lacks-python"
    oldest = min(_version(r) for r in releases)
    dropped = any(_version(r) < oldest for r in rows)  # an older release had wheels there: the platform was dropped
    return "lacks-platform" if dropped or platform == "windows-x86" else None


def _describe(dist: str, spec: SpecifierSet, pythons: Sequence[str], platform: str, from_list: bool) -> str:
    rows = wheel_table()[dist].get(platform, {})
    has = sorted({p for r in allowed(dist, spec) & rows.keys() for p in rows[r]}, key=_key)
    wheels = f"wheels for Python {', '.join(has)}" if has else "no wheel"
    runs = ("pip's list of releases fits Python " if from_list else "the report runs Python ") + " or ".join(pythons)
    return f"{dist}{spec} has {wheels} on {platform} (PyPI); {runs}"


#: the Pythons pip's list is checked against (a wheel table row names no other)
_PYTHONS = ("2.7", *(f"3.{m}" for m in range(0, 20)))
#: the platforms a text that says none may come from, when pip's list is there to decide
_ANY = ("linux-x86_64", "windows-x86_64", "macos-arm64", "macos-x86_64")


def interpreters(dist: str, listed: FrozenSet[str], platforms: Sequence[str]) -> List[Tuple[str, str]]:
    """(Python, platform) pairs pip's list fits. pip lists every release with a wheel for the
    interpreter, and only those; releases published after the report are missing from it, older
    ones are not. So a pair fits when every release the list names has a wheel for that Python
    there and (up to the newest it names) every such release is named, but for one in ten (a
    yanked one). A list naming a release the table does not know (a mirror's own) fits nothing."""
    rows = wheel_table()[dist]
    newest = max(_version(r) for r in listed)
    out = []
    for platform in platforms:
        here = rows.get(platform, {})
        if not all(r in here for r in listed):
            continue
        for py in _PYTHONS:
            if not all(py in here[r] for r in listed):
                continue
            expected = [r for r, pys in here.items() if py in pys and _version(r) <= newest]
            if len(expected) - len(listed) <= max(1, len(expected) // 10):
                out.append((py, platform))
    return out


def findings(text: str, facts: Facts) -> Iterator[Tuple[str, str, Hit, str]]:
    """(verdict, platform, hit, reason) for each pin that lacks a wheel for every Python and
    platform the report may run: those pip's list fits (narrowed to the Python the text or the
    machine names, when it is one of them), else the named Python on the report's platform. The
    text's Python comes before the machine's: explain runs in dldoctor's own interpreter (a pipx
    venv, say), which need not be the one the pasted pip ran in. The
    verdict is "lacks-python" when each of them lacks only the Python, else the weaker
    "lacks-platform"; the platform is the first pair's (32-bit Windows only when all are)."""
    pins = pins_of(text) if "distribution found for" in text or "the requirement" in text else []
    if not pins:
        return
    excerpt = text if len(text) <= 2 * EXCERPT else f"{text[:EXCERPT]}\n{text[-EXCERPT:]}"
    python = python_of(excerpt) or _python_fact(facts)
    os = infer_platform(excerpt, facts)
    platforms = platforms_of(excerpt, os, facts.python_bits)
    line, counted = 1, 0  # line numbers: one pass over the text, the pins in text order
    for pin in sorted(pins, key=lambda p: p.pos):
        line += text.count("\n", counted, pin.pos)
        counted = pin.pos
        pairs = interpreters(pin.dist, pin.listed, platforms or _ANY) if pin.listed else []
        if pairs and python and any(py == python for py, _p in pairs):
            pairs = [(py, p) for py, p in pairs if py == python]
        if not pairs and python:
            pairs = [(python, p) for p in platforms]
        verdicts = {verdict(pin.dist, pin.spec, py, p) for py, p in pairs}
        if not verdicts or None in verdicts or "has" in verdicts:
            continue  # a Python it may run has the wheel, or the table cannot say
        said = "lacks-python" if verdicts == {"lacks-python"} else "lacks-platform"  # the weaker, when both
        lo = max(0, pin.pos - 400)  # the pin's line, at most 400 characters of it before the pin
        nl = text.rfind("\n", lo, pin.pos)
        start = nl + 1 if nl >= 0 else lo
        end = text.find("\n", pin.pos, pin.pos + 400)
        shown = text[start : end if end >= 0 else pin.pos + 400][:400]
        pys = sorted({py for py, _p in pairs}, key=_key)
        reason = _describe(pin.dist, pin.spec, pys, pairs[0][1], bool(pin.listed and pairs[0][0] != python))
        subject = (("release", f"{pin.dist}{pin.spec}"), ("python", " or ".join(pys)))
        platform = pairs[0][1] if all(p == pairs[0][1] for _py, p in pairs) else "any"
        yield said, platform, Hit(SIGNATURE, line, shown, subject), reason


def _key(py: str) -> Tuple[int, ...]:
    return tuple(int(x) for x in py.split("."))


def _python_fact(facts: Facts) -> Optional[str]:
    m = re.match(r"(2\.7|3\.\d{1,2})(?!\d)", facts.python or "")
    return m.group(1) if m else None


def weigh_pins(cands: Sequence[Candidate], text: str, facts: Facts) -> Tuple[Candidate, ...]:
    """``cands`` with ``unsupported-python`` raised when a pinned release has no wheel for the
    report's Python or platform (``python-32bit`` when the platform is 32-bit Windows, for
    which no framework publishes wheels): a noisy-or with what the signatures said."""
    found = [Candidate(SLUG_32BIT if platform == "windows-x86" else SLUG,
                       LACKS_PYTHON if said == "lacks-python" else LACKS_PLATFORM, (hit,), (("wheels", reason),))
             for said, platform, hit, reason in findings(text, facts)]
    return merge(found, cands) if found else tuple(cands)
