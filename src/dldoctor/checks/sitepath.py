"""Checks of the layers Python puts before the environment's own site-packages: PYTHONPATH
(and PYTHONHOME) and the user site. Each finding names the layer and the precedence that made
its copy win, and a fix that works where it is printed: a venv's pip refuses to remove what
lies outside the venv, so the user site's copy is removed with the base interpreter's pip."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

from packaging.utils import canonicalize_name

from dldoctor.checks import check, finding
from dldoctor.checks._layers import (
    base_python,
    delegated,
    is_user_site,
    ours,
    path_python,
    pythonpath_entry,
    tag_python,
)
from dldoctor.checks._util import is_within, norm
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Distribution, PythonPathEntry, Snapshot


def _own_copies(snap: Snapshot) -> Dict[str, Distribution]:
    """The environment's own copy of each distribution (first in sys.path order), leaving
    out the layers judged here."""
    out: Dict[str, Distribution] = {}
    for d in snap.distributions:
        if not delegated(snap, d.location):
            out.setdefault(canonicalize_name(d.name), d)
    return out


def _sys_path_index(snap: Snapshot, folder: str) -> Optional[int]:
    key = norm(snap, folder)
    return next((i for i, p in enumerate(snap.interpreter.sys_path) if norm(snap, p) == key), None)


def _folder_python(snap: Snapshot, e: PythonPathEntry, here: List[Distribution]) -> Optional[Tuple[int, int]]:
    """The Python a PYTHONPATH folder was installed for: its path, its compiled modules' tags,
    its wheels' tags; None when nothing says."""
    found = path_python(e.path)
    if found:
        return found
    for tag in [*e.abi_tags, *(t for d in here for t in d.tags)]:
        v = tag_python(tag)
        if v:
            return v
    return None


def _pythonpath_fix(snap: Snapshot, bad: List[str]) -> str:
    entries = [e for e in snap.python_path]
    sep = ";" if snap.host.os == "windows" else ":"
    keep = [e.path for e in entries if norm(snap, e.path) not in {norm(snap, b) for b in bad}]
    where = "(and remove it where it is set: ~/.bashrc, a setup.bash or activate script you source)"
    if snap.host.os == "windows":
        cmd = "set PYTHONPATH=" + sep.join(keep)
        where = "(and remove it from the user's or system's environment variables)"
    elif keep:
        cmd = "export PYTHONPATH=" + sep.join(keep)
    else:
        cmd = "unset PYTHONPATH"
    return f"Run `{cmd}` in this shell {where}, then import again."


@check("pythonpath-pollution")
def pythonpath_pollution(snap: Snapshot) -> Iterator[Finding]:
    prefix = snap.interpreter.prefix
    mine = ours(snap)
    own = _own_copies(snap)
    judged: List[Tuple[PythonPathEntry, str, List[Tuple[str, str]], Severity]] = []
    for e in snap.python_path:
        if not e.exists or pythonpath_entry(snap, e.path) is not e:
            continue
        here = [d for d in snap.distributions if norm(snap, d.location) == norm(snap, e.path)]
        wins = [(d, own[canonicalize_name(d.name)]) for d in here
                if canonicalize_name(d.name) in own and own[canonicalize_name(d.name)].version != d.version]
        mods = [sh for sh in snap.shadows if is_within(snap, sh.path, e.path)]
        py = _folder_python(snap, e, here)
        other_py = py is not None and mine is not None and py != mine and bool(here or e.abi_tags)
        other_env = bool(e.env_root) and not is_within(snap, prefix, e.env_root or "") \
            and not is_within(snap, e.env_root or "", prefix)
        if not (wins or mods or other_py or (other_env and here)):
            continue
        what = []
        if other_env:
            what.append(f"another environment's ({e.env_root})")
        if other_py and py:
            what.append(f"for Python {py[0]}.{py[1]}, this is {mine[0]}.{mine[1]}" if mine else "")
        if e.checkout:
            what.append("a source checkout")
        pos = _sys_path_index(snap, e.path)
        message = f"PYTHONPATH[{e.index}] {e.path}" + (f" ({'; '.join(w for w in what if w)})" if what else "") \
            + " comes before the environment's site-packages"
        if wins:
            d, o = wins[0]
            message += f": its {d.name} {d.version} is imported, not the environment's {o.version}"
            if len(wins) > 1:
                message += f" (and {len(wins) - 1} more)"
        elif mods:
            message += f": its {mods[0].path} shadows the installed {mods[0].dist}"
        elif other_py:
            message += f": its {len(here) or len(e.abi_tags)} compiled packages cannot load in this Python"
        evidence = [(f"PYTHONPATH[{e.index}]", e.path)]
        if pos is not None:
            evidence.append(("precedence", f"sys.path[{pos}]: PYTHONPATH goes before the standard library "
                                           "and every site-packages folder"))
        if e.env_root:
            evidence.append(("its environment", e.env_root))
        if py:
            evidence.append(("built for", f"Python {py[0]}.{py[1]}"))
        if e.checkout:
            evidence.append(("source checkout", e.checkout))
        evidence += [("imported instead", f"{d.name} {d.version} at {d.location}") for d, _ in wins[:5]]
        evidence += [("environment's copy", f"{o.name} {o.version} at {o.location}") for _, o in wins[:5]]
        evidence += [("shadows", f"{sh.module}: {sh.path} over {sh.installed_at}") for sh in mods[:5]]
        sev = Severity.ERROR if wins or mods or other_py else Severity.WARNING
        judged.append((e, message, evidence, sev))
    home = snap.env.get("PYTHONHOME", "")
    fix = _pythonpath_fix(snap, [e.path for e, *_ in judged])
    for _, message, evidence, sev in judged:
        yield finding("pythonpath-pollution", message, evidence, fix=fix, snapshot=snap, severity=sev)
    if home:
        yield from _pythonhome(snap, home)


def _pythonhome(snap: Snapshot, home: str) -> Iterator[Finding]:
    """PYTHONHOME names the prefix Python takes its standard library from (and, outside a
    venv, its site-packages). Its own installation's prefix is harmless; another one is not."""
    interp = snap.interpreter
    if interp.env_kind == "venv" or is_within(snap, interp.executable, home):
        return  # a venv keeps its own site-packages (pyvenv.cfg); its own prefix is harmless
    cmd = "set PYTHONHOME=" if snap.host.os == "windows" else "unset PYTHONHOME"
    yield finding(
        "pythonpath-pollution",
        f"PYTHONHOME={home} is set: {interp.executable} takes its standard library and site-packages from "
        "there, not from its own installation",
        [("PYTHONHOME", home), ("interpreter", interp.executable), ("prefix in use", interp.prefix)],
        fix=f"Run `{cmd}` (PYTHONHOME is almost never needed; remove it from the environment variables).",
        snapshot=snap,
    )


def _remove_user_copy(snap: Snapshot, name: str) -> str:
    """A command that removes the user site's copy and that pip accepts: inside a venv only
    the base interpreter's pip may (the venv's refuses files outside the venv)."""
    py = base_python(snap) if snap.interpreter.env_kind == "venv" else snap.interpreter.executable
    return f"{py} -m pip uninstall -y {name}"


@check("user-site-shadowing")
def user_site_shadowing(snap: Snapshot) -> Iterator[Finding]:
    us = snap.interpreter.user_site
    if not us:
        return
    pos = _sys_path_index(snap, us)
    if pos is None:
        return  # PYTHONNOUSERSITE, `python -s`, or a venv without system site packages
    skip = "set PYTHONNOUSERSITE=1" if snap.host.os == "windows" else "export PYTHONNOUSERSITE=1"
    groups: Dict[str, List[Distribution]] = {}
    for d in snap.distributions:  # sys.path order: the first of a name is the one imported
        groups.setdefault(canonicalize_name(d.name), []).append(d)
    for group in groups.values():
        d = group[0]
        later = [o for o in group[1:] if not is_user_site(snap, o.location) and o.version != d.version]
        if not is_user_site(snap, d.location) or not later:
            continue
        o = later[0]
        whose = "the environment's" if is_within(snap, o.location, snap.interpreter.prefix) else "the base Python's"
        yield finding(
            "user-site-shadowing",
            f"{d.name} {d.version} in the user site is imported, not {whose} {o.name} {o.version}: "
            "the user site comes before it on sys.path",
            [("user site", us), ("precedence", f"sys.path[{pos}] (user site), before sys.path"
                                               f"[{_sys_path_index(snap, o.location)}] ({o.location})"),
             ("imported", f"{d.name} {d.version} at {d.metadata_dir}"),
             ("shadowed copy", f"{o.name} {o.version} at {o.metadata_dir}")],
            fix=f"Skip the user site: `{skip}` (this shell), or remove the user copy: "
            f"`{_remove_user_copy(snap, d.name)}`.",
            snapshot=snap,
        )
