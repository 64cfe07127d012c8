"""Rebuild the wheel table (src/dldoctor/conditions/wheels.toml): for each framework
distribution, which Python versions each of its releases has a wheel for on PyPI, per
platform. Read from PyPI's JSON API (the file names of every release, parsed as wheel tags).

    python tools/build_wheel_table.py              # fetch from https://pypi.org
    python tools/build_wheel_table.py --from DIR   # DIR/<dist>.json, saved earlier

Why a table and not a rule: "No matching distribution found for torch==1.9.1" has two common
causes, a Python that release has no wheel for and an index or interpreter that is wrong. Which
one it is is a fact about the release (pip sees the same files), so it is looked up, not guessed
(src/dldoctor/explainer/pins.py).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import urllib.request
from pathlib import Path
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Set, Tuple

from _run import run
from packaging.tags import Tag
from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "dldoctor" / "conditions" / "wheels.toml"
SOURCE = "https://pypi.org/pypi/{dist}/json"
#: the distributions whose pinned releases people fail to install (pip's "No matching
#: distribution found for tensorflow==2.5.0"): the frameworks, their variants and satellites
DISTS = (
    "torch", "torchvision", "torchaudio",
    "tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "tensorflow-text",
    "onnxruntime", "onnxruntime-gpu", "onnxruntime-directml",
    "paddlepaddle", "paddlepaddle-gpu", "jaxlib", "mediapipe", "xformers",
)
MINORS = range(0, 20)  # Python 3.0 .. 3.19: what "py3" and "cp38-abi3" stand for


def platforms_of(platform_tag: str) -> Tuple[str, ...]:
    """The table's platforms a wheel's platform tag runs on ("universal2" is both Macs)."""
    p = platform_tag
    if p == "any":
        return ("linux-x86_64", "linux-aarch64", "windows-x86_64", "windows-x86", "macos-arm64", "macos-x86_64")
    if p == "win_amd64":
        return ("windows-x86_64",)
    if p == "win32":
        return ("windows-x86",)
    if p.startswith(("manylinux", "linux", "musllinux")):
        if p.startswith("musllinux"):
            return ()  # Alpine: not what a traceback's "Linux" means
        return ("linux-x86_64",) if p.endswith("x86_64") else ("linux-aarch64",) if p.endswith("aarch64") else ()
    if p.startswith("macosx"):
        if p.endswith(("universal2", "universal")):
            return ("macos-arm64", "macos-x86_64")
        return ("macos-arm64",) if p.endswith("arm64") else ("macos-x86_64",) if p.endswith(("x86_64", "intel")) else ()
    return ()


def pythons_of(tag: Tag) -> Set[str]:
    """The CPython minors ("3.10") a tag installs on: cp310 one; cp38-abi3 and py3 from there on.
    The ABI must be one that minor's interpreter accepts, as pip checks it: cp38 (cp37m before
    3.8), abi3 or none. A mis-tagged wheel installs nowhere (torch-1.7.0-cp38-cp38m-win_amd64:
    pip on Python 3.8 for Windows lists no torch 1.7.0)."""
    interp, abi = tag.interpreter, tag.abi
    if interp in ("py3", "py2.py3"):
        return {f"3.{m}" for m in MINORS}
    if interp == "cp27":
        return {"2.7"} if abi in ("cp27mu", "cp27m", "none") else set()
    if not (interp.startswith("cp3") and interp[3:].isdigit()):
        return set()
    minor = int(interp[3:])
    if abi == "abi3":
        return {f"3.{m}" for m in MINORS if m >= minor}
    accepted = {"none", f"cp3{minor}" if minor >= 8 else f"cp3{minor}m"}
    return {f"3.{minor}"} if abi in accepted else set()


def table_of(dist: str, data: Mapping[str, Any]) -> Tuple[Dict[Tuple[str, FrozenSet[str]], List[str]], List[str]]:
    """((platform, pythons) -> releases of ``dist`` with exactly those wheels, the releases with
    a source distribution). Final releases only: a pin to a pre-release is not read."""
    found: Dict[Tuple[str, str], Set[str]] = {}
    sdists: Set[str] = set()
    for release, files in data.get("releases", {}).items():
        try:
            if Version(release).is_prerelease:
                continue
        except InvalidVersion:
            continue
        for f in files:
            name = f.get("filename", "")
            if name.endswith((".tar.gz", ".zip")) and f.get("packagetype") == "sdist":
                sdists.add(release)
            if not name.endswith(".whl"):
                continue
            try:
                _n, _v, _b, tags = parse_wheel_filename(name)
            except (InvalidWheelFilename, InvalidVersion):
                continue
            for tag in tags:
                for platform in platforms_of(tag.platform):
                    found.setdefault((release, platform), set()).update(pythons_of(tag))
    grouped: Dict[Tuple[str, FrozenSet[str]], List[str]] = {}
    for (release, platform), pys in found.items():
        if pys:
            grouped.setdefault((platform, frozenset(pys)), []).append(release)
    return grouped, sorted(sdists, key=Version)


def _minor(py: str) -> int:
    return int(py.split(".")[1])


Grouped = Dict[Tuple[str, FrozenSet[str]], List[str]]


def dump(tables: Iterable[Tuple[str, Tuple[Grouped, List[str]]]], fetched: str) -> str:
    lines = [
        "# Which Python versions each release of a framework distribution has a wheel for on PyPI,",
        "# per platform. GENERATED by tools/build_wheel_table.py from PyPI's JSON API; do not edit.",
        "# Read by dldoctor.conditions.wheels (explain: is a failed pinned install the Python's fault).",
        "# One row per (dist, platform, pythons): the releases whose wheels for that platform are",
        "# for exactly those Pythons. A release absent from a platform's rows has no wheel there.",
        "# platform: linux-x86_64, linux-aarch64, windows-x86_64, windows-x86, macos-arm64, macos-x86_64",
        "# [[sdists]]: the releases with a source distribution, which pip builds where no wheel fits",
        "# (so a missing wheel is then no \"No matching distribution\").",
        "schema_version = 1",
        f'source = "{SOURCE}"',
        f'fetched = "{fetched}"',
        "",
    ]
    for dist, (grouped, sdists) in tables:
        if sdists:
            lines += ["[[sdists]]", f'dist = "{dist}"', "releases = [" + ", ".join(f'"{r}"' for r in sdists) + "]", ""]
        rows = sorted(grouped.items(), key=lambda kv: (kv[0][0], min(Version(r) for r in kv[1])))
        for (platform, pys), releases in rows:
            ordered = sorted(releases, key=Version)
            lines += [
                "[[wheels]]",
                f'dist = "{dist}"',
                f'platform = "{platform}"',
                "pythons = [" + ", ".join(f'"{p}"' for p in sorted(pys, key=_minor)) + "]",
                "releases = [" + ", ".join(f'"{r}"' for r in ordered) + "]",
                "",
            ]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="folder", type=Path, help="read DIR/<dist>.json instead of fetching")
    args = ap.parse_args()
    tables = []
    for dist in DISTS:
        where = str(args.folder / f"{dist}.json") if args.folder else SOURCE.format(dist=dist)
        try:
            if args.folder:
                raw = Path(where).read_bytes()
            else:
                with urllib.request.urlopen(where, timeout=60) as resp:  # a fixed https URL
                    raw = resp.read()
            data = json.loads(raw)
        except (OSError, ValueError) as exc:  # URLError is an OSError, JSONDecodeError a ValueError
            # nothing is written: the shipped table stays as it was
            print(f"build_wheel_table.py: cannot read {where}: {getattr(exc, 'strerror', None) or exc}",
                  file=sys.stderr)
            return 2
        if not isinstance(data, dict):
            print(f"build_wheel_table.py: {where} is not PyPI's JSON for a project", file=sys.stderr)
            return 2
        tables.append((dist, table_of(dist, data)))
        grouped, sdists = tables[-1][1]
        print(f"{dist}: {sum(len(v) for v in grouped.values())} (release, platform) pairs, {len(sdists)} sdists",
              file=sys.stderr)
    OUT.write_text(dump(tables, datetime.date.today().isoformat()), encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)} written")
    return 0


if __name__ == "__main__":
    run(main, __file__)
