"""Release regressions in a pasted text: the release table (``known_versions.toml``) read
against the versions and the marks (the library, symbol or path each regression names) that
the text shows.

A regression is a fact about a release on a platform, so it lives in one table that ``check``
also reads; here it turns into a ``known-bad-release`` candidate whose weight says how much of
the entry the text shows: the release *and* its mark is near-certain, the release alone with a
failed import is likely, the mark alone (the text does not say which release) is a lead.

Matching reuses the anchor windows of :mod:`dldoctor.explainer.match`, so it stays linear in
the size of the text like every signature.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from dldoctor.conditions.releases import dists_of, known_bad_releases, on_machine
from dldoctor.explainer.anchors import CHUNK, Prepared, anchor_windows, fold
from dldoctor.explainer.match import Hit
from dldoctor.explainer.platform import text_machines

SLUG = "known-bad-release"
BOTH = 0.85  # the text names the release and its mark
RELEASE = 0.6  # the release, in a text that shows a failed import or load
MARK = 0.3  # the mark only (the text does not say which release), unless the entry says
NAME_REACH = 120  # the longest "torch version: 2.3.0" / "upgrading torch from 2.2 to 2.3.0"
#: names a text uses for a distribution other than the distribution's own ("PyTorch 2.3.0")
NICKNAMES = {"pytorch": "torch"}
#: a release, with its pre- or post-release part ("5.1.0.post2" is not "5.1.0", the release it fixes)
_VERSION = r"v?(?P<version>\d{1,4}(?:\.\d{1,4}){1,3}(?:\.?(?:post|dev|rc|a|b)\d{1,4})?)(?!\d)"
#: what follows a distribution's name when it gives the release: "==2.3.0" (or pip's "==="
#: arbitrary equality, which tutorials and install guides paste), ": 2.3.0",
#: " version: 2.3.0", the columns of `pip list`, "-2.3.0-cp311" of a wheel, or the user's
#: "upgrading torch from 2.2.2 to 2.3.0" (tried only where the name stands, see below)
_AFTER = re.compile(
    r"(?:-gpu|-cpu)?(?:={2,3}|\s{0,3}[:=]\s{0,3}|\s{1,3}version:?\s{0,3}|\s{1,30}|-)" + _VERSION
    + r"|(?:-gpu|-cpu)?(?:\s{1,3}from\b[^\n]{0,60}?)?\s{1,3}to\s{1,3}" + _VERSION.replace("?P<version>", "?P<to>"),
    re.IGNORECASE,
)
#: a failed import or library load: the kind of failure the table's entries describe. A text
#: that names a listed release is claimed only with such a failure (or a mark of the entry):
#: "Torch not compiled with CUDA enabled" or a numpy error beside "torch 2.4.0" is no loading
#: regression of 2.4.0, and a machine with a listed release that shows, say, an out-of-memory
#: error is not claimed either
LOAD_FAILURE = re.compile(r"DLL load failed|\[WinError \d{1,5}\]|Error loading|ImportError|undefined symbol|"
                          r"cannot open shared object|Library not loaded|Could not find module|"
                          r"incompatible architecture|no suitable image found", re.IGNORECASE)


@lru_cache(maxsize=1)
def aliases() -> Tuple[Tuple[str, str], ...]:
    """(name a text uses, distribution) for every distribution the release table lists, its
    variants and its nicknames: a new entry is read from texts without touching this module,
    and a distribution no entry lists is never looked for (a version of it could rule
    nothing in or out)."""
    names = {name.lower(): entry["dist"] for entry in known_bad_releases() for name in dists_of(entry)}
    names.update((nick, dist) for nick, dist in NICKNAMES.items() if dist in names.values())
    return tuple(sorted(names.items()))


@lru_cache(maxsize=None)
def _standing(name: str) -> re.Pattern[str]:
    """``name`` where a version can follow it: not inside a word or a dotted name, and followed by
    a blank, "-", "=" or ":" (searched in lowered text)."""
    # the look-behind after the name, so that re finds the name as a literal prefix (in C)
    # instead of trying the look-behind at every position
    literal = re.escape(name)
    return re.compile(literal + r"(?<![\w.]" + literal + r")(?=[-=:\s])")


def mentioned_versions(text: str, prep: Optional[Prepared] = None) -> Dict[str, Set[str]]:
    """distribution -> versions the text names for it ("torch==2.3.0", "PyTorch version: 2.3.0",
    "torch 2.4.0" in `pip list`, "upgrading torch from 2.2.2 to 2.3.0"), for the distributions
    of the release table (:func:`aliases`).

    One anchored match right after each occurrence of a name (found with C-level search on
    the text lowered a chunk at a time), so the cost is linear in the text and in the names."""
    out: Dict[str, Set[str]] = {}
    n = len(text)
    for c0 in range(0, n, CHUNK):
        c1 = min(n, c0 + CHUNK)
        shared = prep is not None and prep.text is text
        low = prep.folded(c0) if prep is not None and shared else fold(text[c0 : c1 + NAME_REACH])
        for name, dist in aliases():
            if prep is not None and shared and not prep.chunk_may_hold(name, c0):
                continue  # the chunk's vocabulary rules the name out: no pass over the chunk
            # what _AFTER can start with: a version follows a blank, "-", "=" or ":" (not the
            # "/" of ".../site-packages/torch/nn", a log's most frequent "torch"), and a name
            # stands alone; the search runs in C, so the many "/torch/" of a log cost no Python
            for found in _standing(name).finditer(low, 0, c1 - c0 + 1):
                end = c0 + found.end()
                m = _AFTER.match(text, end, min(n, end - len(name) + NAME_REACH))
                if m:
                    out.setdefault(dist, set()).add(_as_pip_reads(m))
    return out


def _as_pip_reads(m: re.Match[str]) -> str:
    """The version a match names. A requirement's "==2.10" is 2.10.0 to pip (PEP 440 pads with
    zeros: huggingface/lerobot#3474, "pytorch==2.10", was 2.10.0); "PyTorch 2.3" in prose is a
    series, and stays "2.3", which no entry for one patch release claims."""
    version = m.group("version")
    if version is None:
        return m.group("to")
    if version.count(".") != 1:  # the usual "2.3.0": nothing to pad, and the cheap way out
        return version
    operator = m.string[m.start() : m.start("version")]
    series = m.string.startswith(".*", m.end("version"))  # "==2.10.*": pip picks the newest 2.10.x
    required = "==" in operator and "===" not in operator  # "===" compares strings: no padding
    if required and not series and version.replace(".", "").isdigit():
        return version + ".0"
    return version


@lru_cache(maxsize=256)
def _spec(spec: str) -> SpecifierSet:
    return SpecifierSet(spec)


@lru_cache(maxsize=4096)
def _version(raw: str) -> Optional[Version]:
    try:
        return Version(raw)
    except InvalidVersion:
        return None


def _contains(spec: str, versions: Iterable[str]) -> Optional[bool]:
    """Whether any version is in the specifier; None when no version is known."""
    seen = False
    exact = re.fullmatch(r"==(\d{1,6}(?:\.\d{1,6}){0,4})(\.\*)?", spec)
    if exact:  # the usual entry, "==2.3.0" or "==2024.1.*": compared as text, no parsing
        base, wild = exact.group(1), bool(exact.group(2))
        listed = list(versions)  # no local part: the reader stops at "+cu121"
        if not listed:
            return None
        return any(v.startswith(base + ".") or v == base if wild else v == base or v == base + ".0"
                   for v in listed)
    for raw in versions:
        version = _version(raw)
        if version is None:
            continue
        seen = True
        if _spec(spec).contains(version, prereleases=True):
            return True
    return False if seen else None


def _marks_seen(text: str, entries: Tuple[Mapping[str, Any], ...], prep: Optional[Prepared]) -> Set[str]:
    marks = {m: len(m) for e in entries for m in e["marks"]}
    return {m for m, spans in anchor_windows(text, marks, prep).items() if len(spans)}


def release_matches(
    text: str, platform: Optional[str], versions: Optional[Mapping[str, Set[str]]] = None,
    prep: Optional[Prepared] = None,
) -> List[Tuple[Mapping[str, Any], float, str]]:
    """(entry, weight, what the text showed) for every release-table entry the text points at.

    ``platform`` is the OS the text comes from (None: unknown, every platform counts);
    ``versions`` the versions known for each distribution (the text's, by default); ``prep``
    the text's :class:`~dldoctor.explainer.anchors.Prepared` when matching shares it."""
    entries = known_bad_releases()
    versions = mentioned_versions(text, prep) if versions is None else versions
    marks = _marks_seen(text, entries, prep)
    failed: Optional[bool] = None  # searched only when a listed release needs it: a long log costs ms
    machines: Optional[FrozenSet[str]] = None  # likewise, only for an entry limited to some machines
    out: List[Tuple[Mapping[str, Any], float, str]] = []
    for entry in entries:
        if platform is not None and platform not in entry["platforms"]:
            continue
        # a variant's versions ("paddlepaddle-gpu==2.5.1") are read under the base name
        listed = _contains(entry["specifier"], versions.get(entry["dist"], ()))
        marked = sorted(m for m in entry["marks"] if m in marks)
        if listed is False or not (listed or marked):
            continue  # the text names another release of this distribution, or nothing of the entry
        if entry.get("with") and not marked:
            continue  # it breaks only beside another package: only its own mark shows that
        if not on_machine(entry, None):  # limited to some machines: the text must show one of them
            machines = text_machines(text) if machines is None else machines
            if not any(on_machine(entry, m) for m in machines):
                continue
        if listed and marked:
            out.append((entry, BOTH, f"{entry['dist']} {entry['specifier']} and {marked[0]}"))
        elif listed and entry["load"]:
            if failed is None:
                failed = LOAD_FAILURE.search(text) is not None
            if failed:
                out.append((entry, RELEASE, f"{entry['dist']} {entry['specifier']}"))
        elif marked:  # each mark is a separate clue (a library, a path shape): noisy-or
            alone = float(entry.get("alone", MARK))
            out.append((entry, round(1.0 - (1.0 - alone) ** len(marked), 4), marked[0]))
    return out


def release_hits(text: str, platform: Optional[str], prep: Optional[Prepared] = None) -> List[Tuple[Hit, float]]:
    """The release-table matches as hits of a ``known-bad-release`` candidate: the line that
    names the mark or the release, and the table's entry (symptom, fixed release, source)."""
    out: List[Tuple[Hit, float]] = []
    for entry, weight, shown in release_matches(text, platform, prep=prep):
        where = re.search(re.escape(shown.split(" and ")[-1]) if weight not in (BOTH, RELEASE) or " and " in shown
                          else re.escape(entry["dist"]), text, re.IGNORECASE)
        line = text.count("\n", 0, where.start()) + 1 if where else 1
        words = f"release table: {entry['dist']} {entry['specifier']} on {'/'.join(entry['platforms'])}: " \
            f"{entry['symptom']}; works: {entry['good']} ({entry['source']})"
        out.append((Hit(f"release-{entry['dist']}", line, words,
                        (("version", f"{entry['dist']} {entry['specifier']}"), ("source", entry["source"]))), weight))
    return out


def listed_release(
    dist: str, version: str, platform: Optional[str], load: Optional[bool] = None,
) -> Optional[Mapping[str, Any]]:
    """The table entry for ``dist`` ``version`` on ``platform``, if that release is listed.

    ``load``: only entries whose regression is (True) or is not (False) a failed load.
    Entries that break only beside another distribution (``with``: torch 2.3.0 with torchdata)
    are left out: the machine's release alone does not say that one is installed, and only the
    text's mark can show that regression."""
    for entry in known_bad_releases():
        if not on_machine(entry, None):
            continue  # limited to some machines: the architecture is no fact explain has
        if _has(entry, dist, version, platform) and not entry.get("with") and (load is None or entry["load"] == load):
            return entry
    return None


def _has(entry: Mapping[str, Any], dist: str, version: str, platform: Optional[str]) -> bool:
    """The machine's ``dist`` ``version`` ("2.3.0+cu121": local part ignored) on ``platform`` is
    a release ``entry`` lists."""
    return (dist in dists_of(entry) and (platform is None or platform in entry["platforms"])
            and _contains(entry["specifier"], [version.split("+", 1)[0]]) is True)


def hit_release(hit: Hit, version: str, platform: Optional[str]) -> Optional[Mapping[str, Any]]:
    """The table entry a release hit (:func:`release_hits`) came from, if the machine's
    ``version`` on ``platform`` is that very release: the entry is named by its source, so one
    that breaks only beside another package (torch 2.3.0 with torchdata) counts too."""
    dist = hit.signature[len("release-"):]
    sources = {value for key, value in hit.subject if key == "source"}
    return next((e for e in known_bad_releases() if e["source"] in sources and _has(e, dist, version, platform)), None)
