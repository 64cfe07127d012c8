"""`dldoctor wheels`: judge a set of wheels as if installed on another platform, before installing."""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from dldoctor.cli._common import add_format, emit, write_file
from dldoctor.errors import DldoctorError
from dldoctor.model import Severity

DESCRIPTION = """\
Lay the wheels out as pip would install them into a virtual venv on a stock machine of
--platform (the system DLLs of a stock Windows 10/11 x64, with their provenance), then run
the Windows loader model over every extension module: DLLs that neither a wheel nor the
system provides, one DLL name shipped by several wheels in different versions and which copy
wins in which import order, wrong architectures, the VC++ runtime. Only native libraries'
headers are read from the wheels. With -r, the wheels are downloaded with `pip download
--only-binary=:all: --platform TAG --python-version X.Y` into the user cache.

exit status: 0 no error finding, 1 at least one error finding, 2 bad usage or input.
"""


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("wheel", nargs="*", help="wheel files (.whl), or folders of them")
    p.add_argument("-r", "--requirement", action="append", default=[], metavar="FILE",
                   help="download what this requirements file resolves to for --platform (repeatable)")
    p.add_argument("--platform", default="win_amd64", help="wheel platform tag of the target (default: win_amd64)")
    p.add_argument("--python-version", metavar="X.Y",
                   help="target Python version (default: the one the wheels' cpXY tags name most, else 3.11)")
    p.add_argument("--vc-redist", metavar="VERSION",
                   help="Visual C++ Redistributable version on the target, e.g. 14.44 (default: none installed)")
    p.add_argument("--order", metavar="DISTS", help="import order for the whole-process view, comma-separated")
    p.add_argument("-o", "--snapshot-out", metavar="FILE", help="also write the virtual install's snapshot (JSON)")
    add_format(p)
    p.add_argument("--select", action="append", default=[], metavar="CODES", help="only these conditions")
    p.add_argument("--ignore", action="append", default=[], metavar="CODES", help="skip these conditions")


DEFAULT_PYTHON = "3.11"


def wheel_paths(given: Sequence[str]) -> List[str]:
    """The wheel files given, a folder standing for the .whl files in it (sorted); one wheel
    file name given twice (two folders of one download) is installed once, as pip would."""
    out: Dict[str, str] = {}
    for item in given:
        if os.path.isdir(item):
            found = sorted(str(p) for p in Path(item).glob("*.whl"))
            if not found:
                raise DldoctorError(f"{item}: a folder without .whl files")
            _one_release_each(item, found)
        else:
            found = [item]
        for path in found:
            out.setdefault(os.path.basename(path).lower(), path)
    return list(out.values())


def _one_release_each(folder: str, paths: Sequence[str]) -> None:
    """A folder is one install: two wheels of one project in it (a download cache) would be
    judged as installed together, which pip never does."""
    seen: Dict[str, List[str]] = {}
    for path in paths:
        try:
            name = parse_wheel_filename(os.path.basename(path))[0]
        except InvalidWheelFilename:
            continue  # install() reports it
        seen.setdefault(str(name), []).append(os.path.basename(path))
    twice = {n: files for n, files in seen.items() if len(files) > 1}
    if twice:
        shown = "; ".join(", ".join(files) for files in list(twice.values())[:3])
        raise DldoctorError(f"{folder}: holds several wheels of {', '.join(sorted(twice))} ({shown}); "
                            "give the wheels of one install, or a folder with one wheel per project")


def tagged_python(paths: Sequence[str]) -> Optional[str]:
    """The Python the wheels are built for: the X.Y their version-specific tags (cp312, not abi3
    or py3) name most often, the newer on a tie; None when none names one."""
    seen: Counter[str] = Counter()
    for path in paths:
        try:
            _name, _version, _build, tags = parse_wheel_filename(os.path.basename(path))
        except InvalidWheelFilename:
            continue  # install() reports it
        minors = {f"{t.interpreter[2]}.{t.interpreter[3:]}" for t in tags
                  if t.interpreter.startswith("cp3") and len(t.interpreter) > 3 and t.interpreter[2:].isdigit()
                  and t.abi != "abi3"}
        seen.update(minors)
    if not seen:
        return None
    return max(seen, key=lambda v: (seen[v], tuple(int(x) for x in v.split("."))))


def run(args: argparse.Namespace) -> int:
    from dldoctor.checks import resolve_selection
    from dldoctor.render import renderer
    from dldoctor.wheelset.download import download_requirements
    from dldoctor.wheelset.install import install, snapshot_of
    from dldoctor.wheelset.report import wheels_report

    select, ignore = resolve_selection(args.select), resolve_selection(args.ignore)
    paths = wheel_paths(args.wheel)
    python_version = args.python_version or tagged_python(paths) or DEFAULT_PYTHON
    for req in args.requirement:
        paths += download_requirements(req, args.platform, python_version)
    if not paths:
        raise DldoctorError("no wheels: give wheel files or -r REQUIREMENTS")
    vi = install(paths, args.platform, python_version, args.vc_redist)
    snap = snapshot_of(vi)
    dists = {canonicalize_name(w.name): w.name for w in vi.wheels}
    asked = [d.strip() for d in args.order.split(",") if d.strip()] if args.order else []
    unknown = [d for d in asked if canonicalize_name(d) not in dists]
    if unknown:
        raise DldoctorError(f"--order: not among the wheels: {', '.join(sorted(unknown))} "
                            f"(the wheels: {', '.join(sorted(dists.values()))})")
    order = [dists[canonicalize_name(d)] for d in asked] or None
    if order:
        order += [d for d in dists.values() if d not in order]
    report = wheels_report(vi, snap, order, select, ignore, args.platform, python_version, args.vc_redist)
    if args.snapshot_out:
        write_file(args.snapshot_out, json.dumps(snap.to_dict(), indent=1) + "\n")
    emit(renderer(args.format)(report))
    return 1 if report.worst is not None and report.worst >= Severity.ERROR else 0
