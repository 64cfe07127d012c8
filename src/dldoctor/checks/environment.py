"""Checks about the interpreter itself and what it imports first."""

from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Set, Tuple

from packaging.tags import Tag, compatible_tags, cpython_tags, generic_tags, mac_platforms, parse_tag

from dldoctor.checks import check, finding
from dldoctor.checks._layers import delegated, is_user_site, tag_python, under_pythonpath
from dldoctor.checks._layers import ours as our_python
from dldoctor.checks._util import env_of_interpreter, is_within, pip_of
from dldoctor.model import Finding
from dldoctor.snapshot.model import Snapshot


@check("shadowed-module")
def shadowed_module(snap: Snapshot) -> Iterator[Finding]:
    owners = {(d.location, m) for d in snap.distributions for m in d.top_level}
    for sh in snap.shadows:
        # Another installed copy first on sys.path is duplicate-install's business.
        if any(is_within(snap, sh.path, loc) and sh.module == m for loc, m in owners):
            continue
        if under_pythonpath(snap, sh.path) or is_user_site(snap, sh.path.rsplit(sh.module, 1)[0]):
            continue  # pythonpath-pollution / user-site-shadowing name it with its precedence
        where = "in the working folder" if sh.in_cwd else "earlier on sys.path"
        yield finding(
            "shadowed-module",
            f"{sh.path} {where} shadows the installed {sh.dist} (import {sh.module})",
            [("imported instead", sh.path), ("installed package", sh.installed_at)],
            fix=f"Rename or remove {sh.path} (and its __pycache__), then import {sh.module} again.",
            snapshot=snap,
        )


@check("interpreter-mismatch")
def interpreter_mismatch(snap: Snapshot) -> Iterator[Finding]:
    for py_name, pip_name in (("python", "pip"), ("python3", "pip3")):
        py, pip = snap.path_tools.get(py_name), snap.path_tools.get(pip_name)
        if py is None or pip is None or not pip.interpreter or not py.interpreter:
            continue
        py_env = env_of_interpreter(snap, py.interpreter)
        pip_env = env_of_interpreter(snap, pip.interpreter)
        if py_env != pip_env:
            yield finding(
                "interpreter-mismatch",
                f"`{pip_name}` installs into {pip_env}, but `{py_name}` runs {py_env}",
                [(f"{py_name} on PATH", py.path), (f"{pip_name} on PATH", pip.path),
                 (f"{pip_name} runs", pip.interpreter)],
                fix=f"Use `{py_name} -m pip install ...` so packages land where {py_name} looks.",
                snapshot=snap,
            )


@check("python-32bit")
def python_32bit(snap: Snapshot) -> Iterator[Finding]:
    if snap.interpreter.bits == 32:
        yield finding(
            "python-32bit",
            f"{snap.interpreter.executable} is a 32-bit Python {snap.interpreter.version}",
            [("interpreter", snap.interpreter.executable), ("pointer size", "32 bits"),
             ("platform", snap.interpreter.platform_tag)],
            snapshot=snap,
        )


def _manylinux(glibc: Tuple[int, int], arch: str) -> List[str]:
    """Platform tags a glibc system accepts, newest first (PEP 600 plus the legacy aliases)."""
    legacy = {(2, 17): "manylinux2014", (2, 12): "manylinux2010", (2, 5): "manylinux1"}
    out = []
    for minor in range(glibc[1], 4, -1):
        out.append(f"manylinux_2_{minor}_{arch}")
        alias = legacy.get((2, minor))
        if alias:
            out.append(f"{alias}_{arch}")
    out.append(f"linux_{arch}")
    return out


def supported_platforms(snap: Snapshot) -> Optional[List[str]]:
    """Wheel platform tags this interpreter accepts, from snapshot facts alone."""
    tag = snap.interpreter.platform_tag.replace("-", "_").replace(".", "_")
    if snap.host.os == "windows":
        return [tag]
    if snap.host.os == "macos":
        parts = snap.interpreter.platform_tag.split("-")  # macosx-11.0-arm64
        if len(parts) < 3:
            return None
        major, _, minor = parts[1].partition(".")
        arch = parts[2]
        return list(mac_platforms((int(major), int(minor or 0)), arch))
    arch = tag.split("_", 1)[1] if tag.startswith("linux_") else snap.host.machine
    libc = snap.host.libc.split()
    out: List[str] = []
    if len(libc) == 2 and libc[0] == "glibc":
        major, _, minor = libc[1].partition(".")
        if major.isdigit() and minor.split(".")[0].isdigit():
            out = _manylinux((int(major), int(minor.split(".")[0])), arch)
    return out or [f"linux_{arch}"]


def supported_tags(snap: Snapshot) -> Optional[Set[Tag]]:
    interp = snap.interpreter
    platforms = supported_platforms(snap)
    if platforms is None or len(interp.version_info) < 2:
        return None
    version = (interp.version_info[0], interp.version_info[1])
    if interp.implementation == "cpython":
        flags = "t" if interp.gil_disabled else ""
        abi = f"cp{version[0]}{version[1]}{flags}"
        tags = set(cpython_tags(version, [abi], platforms))
        tags |= set(compatible_tags(version, f"cp{version[0]}{version[1]}", platforms))
    else:
        short = {"pypy": "pp"}.get(interp.implementation, interp.implementation[:2])
        soabi = interp.soabi.replace("-", "_").replace(".", "_")
        tags = set(generic_tags(short + "".join(map(str, version)), [soabi] if soabi else [], platforms))
        tags |= set(compatible_tags(version, None, platforms))
    return tags


def _wheel_tags(raw: Iterable[str]) -> Set[Tag]:
    out: Set[Tag] = set()
    for t in raw:
        try:
            out |= set(parse_tag(t))
        except ValueError:
            continue
    return out


def unfit_distributions(snap: Snapshot) -> Set[str]:
    """Names of the distributions whose wheel tags this interpreter does not accept: what fails
    in their files (a python311.dll a cp311 module needs, a win32 .pyd) is that one cause."""
    ours = supported_tags(snap)
    if ours is None:
        return set()
    return {d.name for d in snap.distributions if (theirs := _wheel_tags(d.tags)) and not theirs & ours}


@check("unsupported-python")
def unsupported_python(snap: Snapshot) -> Iterator[Finding]:
    ours = supported_tags(snap)
    if ours is None:
        return
    interp = snap.interpreter
    for d in snap.distributions:
        theirs = _wheel_tags(d.tags)
        if delegated(snap, d.location) and any(tag_python(t) not in (None, our_python(snap)) for t in d.tags):
            continue  # another Python's folder on PYTHONPATH: pythonpath-pollution names it
        if not theirs or theirs & ours:
            continue
        built_for = ", ".join(sorted(d.tags)[:3])
        # the Python fits, the machine does not (a win32 wheel for a 64-bit Python): say so
        other_machine = {(t.interpreter, t.abi) for t in theirs} & {(t.interpreter, t.abi) for t in ours}
        not_for = (f"not for this interpreter's platform ({interp.platform_tag or 'unknown'})" if other_machine
                   else f"not for this Python {interp.version}")
        yield finding(
            "unsupported-python",
            f"{d.name} {d.version} was built for {built_for}, {not_for}",
            [("wheel tags", built_for), ("interpreter", f"{interp.implementation} {interp.version} "
                                         f"{interp.bits}-bit, {interp.platform_tag}"),
             ("installed at", d.metadata_dir)],
            fix=f"Reinstall with this interpreter: {pip_of(snap)} install --force-reinstall "
            f"{d.name}=={d.version}  (or use a Python version {d.name} publishes wheels for).",
            snapshot=snap,
        )
