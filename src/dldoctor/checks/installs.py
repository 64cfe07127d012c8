"""Checks about how distributions are installed: twice, or damaged."""

from __future__ import annotations

from typing import Dict, Iterator, List

from packaging.utils import canonicalize_name

from dldoctor.checks import check, finding
from dldoctor.checks._layers import delegated
from dldoctor.checks._util import is_within, norm, pip_of, shell_path
from dldoctor.conditions.frameworks import conda_names
from dldoctor.model import Finding, Severity
from dldoctor.snapshot.model import Distribution, Snapshot


@check("duplicate-install")
def duplicate_install(snap: Snapshot) -> Iterator[Finding]:
    groups: Dict[str, List[Distribution]] = {}
    for d in snap.distributions:
        groups.setdefault(canonicalize_name(d.name), []).append(d)
    for dists in groups.values():
        editable = {d.version for d in dists if d.editable}
        # An editable install's build leaves NAME.egg-info in the source folder it puts on
        # sys.path: same version, same code, one install.
        dists = [d for d in dists if not (d.kind == "egg-info" and d.version in editable)]
        if len(dists) > 1:
            if delegated(snap, dists[0].location):
                continue  # a PYTHONPATH or user-site copy wins: pythonpath/user-site checks name it
            imported = imported_copy(snap, dists)
            if venv_overlay(snap, imported, dists):
                continue
            yield finding(
                "duplicate-install",
                f"{imported.name} is installed {len(dists)} times: "
                + ", ".join(d.version or "?" for d in dists) + f" ({imported.version} is imported)",
                [(f"copy {i + 1}", f"{d.version} at {d.metadata_dir}") for i, d in enumerate(dists)],
                fix=_dedupe_fix(snap, imported, dists),
                snapshot=snap,
            )
    yield from _shared_modules(snap)
    conda = set(snap.conda_packages)
    if not conda:
        return
    aliases = conda_names()
    for d in snap.distributions:
        if d.installer.strip().lower() != "pip":
            continue
        names = {canonicalize_name(d.name), *aliases.get(canonicalize_name(d.name), [])}
        hit = sorted(names & conda)
        if hit:
            yield finding(
                "duplicate-install",
                f"pip installed {d.name} {d.version} over conda's {hit[0]}",
                [("pip copy", d.metadata_dir), ("conda package", hit[0])],
                # Both wrote the same files: `conda remove` would delete pip's too, so pip's
                # copy goes first and conda rewrites its own.
                fix=f"Keep conda's: `{pip_of(snap)} uninstall -y {d.name}`, then "
                f"`conda install --force-reinstall {hit[0]}` (pip's copy overwrote the files conda tracks).",
                snapshot=snap,
                severity=Severity.WARNING,
            )


def venv_overlay(snap: Snapshot, imported: Distribution, dists: List[Distribution]) -> bool:
    """A venv made with ``--system-site-packages`` puts its own site-packages before the base's:
    a package installed in the venv overrides the base's copy by design (venv seeds its own pip,
    and setuptools before 3.12, so those two are in both layers of every such venv).
    https://docs.python.org/3/library/venv.html ("--system-site-packages"). Normal when the
    imported copy is the venv's and every other copy is the base interpreter's."""
    prefix, base = snap.interpreter.prefix, snap.interpreter.base_prefix
    if not prefix or not base or norm(snap, prefix) == norm(snap, base):
        return False
    if not is_within(snap, imported.location, prefix):
        return False
    return all(is_within(snap, d.location, base) and not is_within(snap, d.location, prefix)
               for d in dists if d is not imported)


def imported_copy(snap: Snapshot, dists: List[Distribution]) -> Distribution:
    """The copy whose files ``import`` reaches: the first folder on sys.path that holds one,
    and in that folder the dist-info whose RECORD hashes match the files on disk."""
    first = norm(snap, dists[0].location)
    here = [d for d in dists if norm(snap, d.location) == first]
    return max(here, key=lambda d: d.matching_files or 0)


def _dedupe_fix(snap: Snapshot, imported: Distribution, dists: List[Distribution]) -> str:
    """Two dist-infos in one folder: pip uninstall removes one dist-info and the files of its
    RECORD, which the other one shares, so uninstall twice and install once; copies in other
    folders are removed with the interpreter the folder belongs to."""
    name, pip = imported.name, pip_of(snap)
    stale = [d for d in dists if d is not imported]
    if all(norm(snap, d.location) == norm(snap, imported.location) for d in stale):
        return (f"Run `{pip} uninstall -y {name}` {len(dists)} times (one per dist-info), "
                f"then `{pip} install --no-deps {name}=={imported.version}`.")
    return (f"Keep one copy: remove {', '.join(d.metadata_dir for d in stale)} with the pip of the environment "
            f"it belongs to, then `{pip} install --force-reinstall --no-deps {name}=={imported.version}`.")


def _sharers(snap: Snapshot, d: Distribution) -> List[Distribution]:
    """Other distributions in the same folder that ship a file ``d``'s RECORD finds changed
    (opencv-python and opencv-contrib-python both own cv2/cv2.abi3.so, onnxruntime and
    onnxruntime-gpu their capi/ modules): the one installed last overwrote the other's files.
    Sharing a folder is not enough: nvidia-cudnn and nvidia-cublas share nvidia/ and no file."""
    changed = set(d.record.examples) if d.record is not None else set()
    return [o for o in snap.distributions if o is not d and o.location == d.location
            and canonicalize_name(o.name) != canonicalize_name(d.name) and changed & set(o.native_libs)]


def _shared_modules(snap: Snapshot) -> Iterator[Finding]:
    """Two distributions that install one module folder, seen by the files the last one
    rewrote (corrupt-install leaves these to this check: a forced reinstall would only
    overwrite the other package in turn)."""
    told: set = set()  # type: ignore[type-arg]
    for d in snap.distributions:
        rec = d.record
        sharers = _sharers(snap, d) if rec is not None and rec.problems else []
        if rec is None or not sharers:
            continue
        names = [d.name, *(o.name for o in sharers)]
        key = frozenset(canonicalize_name(n) for n in names)
        if key in told:
            continue
        told.add(key)
        parts = ", ".join(f"{n} {what}" for n, what in (
            (rec.missing, "missing"), (rec.wrong_size, "of wrong size"), (rec.wrong_hash, "with wrong content")) if n)
        shared = sorted({f.split("/")[0] for o in sharers for f in set(rec.examples) & set(o.native_libs)})
        yield finding(
            "duplicate-install",
            f"{' and '.join(names)} both install the module {', '.join(shared)}: the one installed last "
            f"overwrote the other's files ({d.name} {d.version}: {parts} of {rec.files} files in RECORD)",
            [*(("package", f"{x.name} {x.version} at {x.metadata_dir}") for x in (d, *sharers)),
             *(("file", e) for e in rec.examples)],
            fix=f"Keep one of them: `{pip_of(snap)} uninstall -y {' '.join(names)}`, then install again only "
            "the one you need.",
            snapshot=snap,
            severity=Severity.WARNING,  # the import works today; uninstalling or upgrading either breaks the other
        )


@check("corrupt-install")
def corrupt_install(snap: Snapshot) -> Iterator[Finding]:
    """RECORD against disk. Files another distribution rewrote (two packages owning one module
    folder) are no corruption: a forced reinstall would only overwrite the other package in
    turn, so that case is duplicate-install, with keeping one of them as the fix."""
    for d in snap.distributions:
        rec = d.record
        if rec is not None and rec.problems:
            parts = []
            if rec.missing:
                parts.append(f"{rec.missing} missing")
            if rec.wrong_size:
                parts.append(f"{rec.wrong_size} of wrong size")
            if rec.wrong_hash:
                parts.append(f"{rec.wrong_hash} with wrong content")
            shared = {f for o in _sharers(snap, d) for f in o.native_libs}
            own = [e for e in rec.examples if e not in shared]
            if shared and not own:
                continue  # duplicate-install: another package rewrote these files
            if shared:  # some of them; the others are damaged as well
                parts.append(f"some rewritten by another package (duplicate-install), {len(own)} or more not")
            yield finding(
                "corrupt-install",
                f"{d.name} {d.version}: {', '.join(parts)} of {rec.files} files in RECORD",
                [("RECORD", f"{d.metadata_dir}"), *(("file", e) for e in own)],
                fix=f"{pip_of(snap)} install --force-reinstall --no-deps --no-cache-dir {d.name}=={d.version}",
                snapshot=snap,
            )
        elif d.problem and d.problem != "RECORD missing":
            yield finding(
                "corrupt-install",
                f"{d.metadata_dir}: {d.problem}",
                [("metadata", d.metadata_dir)],
                snapshot=snap,
                severity=Severity.WARNING,
            )


@check("pip-leftovers")
def pip_leftovers(snap: Snapshot) -> Iterator[Finding]:
    by_folder: Dict[str, List[str]] = {}
    for path in snap.leftovers:
        by_folder.setdefault(path.replace("\\", "/").rpartition("/")[0], []).append(path)
    names = {n.lower() for d in snap.distributions for n in (*d.top_level, d.name.replace("-", "_"))}
    for folder, paths in by_folder.items():
        stems = sorted({p.replace("\\", "/").rsplit("/", 1)[-1].split("-")[0] for p in paths})
        # pip stashes NAME as ~AME: an installed name of the same length and tail is the one
        # the interrupted run was replacing; none means that package may be gone.
        gone = [s for s in stems if not any(len(n) == len(s) and n.endswith(s[1:].lower()) for n in names)]
        shown = ", ".join(p.replace("\\", "/").rsplit("/", 1)[-1] for p in paths[:6])
        if snap.host.os == "windows":
            cmd = "Remove-Item -Recurse -Force " + ", ".join(shell_path(snap, p) for p in paths)
        else:
            cmd = "rm -rf " + " ".join(shell_path(snap, p) for p in paths)
        message = f"an interrupted pip run left {len(paths)} folder(s) in {folder}: " \
            f"{shown} (pip warns: Ignoring invalid distribution -{stems[0][1:]})"
        if gone:
            message += f"; no installed package matches {', '.join(gone)}: the run may have removed it"
        yield finding(
            "pip-leftovers",
            message,
            [("leftover", p) for p in paths[:10]],
            fix=f"Remove them: `{cmd}`" + (", then install the package again" if gone else "") + ".",
            snapshot=snap,
            severity=Severity.ERROR if gone else Severity.WARNING,
        )
