"""Builders for the native checks' fixtures: real shared objects (gcc + patchelf) shipped in
real wheels that pip installs, and copies of real packages from the torch venv."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Dict, Sequence

import pytest

from dldoctor.snapshot.collect import collect_snapshot
from dldoctor.snapshot.model import Snapshot

from ..conftest import CACHE, cache_lock, pip_download, pip_install, site_packages, venv_python

EXT = ".cpython-311-x86_64-linux-gnu.so"  # the suffix venv_factory's Python 3.11 imports
NATIVE = ("missing-shared-library", "wrong-architecture", "dll-version-conflict",
          "duplicate-openmp", "ld-library-path-override", "path-pollution")


def snapshot_of(venv: Path, monkeypatch: pytest.MonkeyPatch, ld_library_path: str = "") -> Snapshot:
    monkeypatch.setenv("LD_LIBRARY_PATH", ld_library_path)
    return collect_snapshot(str(venv_python(venv)))


def gcc_shared(out: Path, source: str, soname: str = "", needed: Sequence[str] = (),
               rpath: str = "", flags: Sequence[str] = ()) -> Path:
    """Compile a real shared object; DT_NEEDED / DT_RPATH set with patchelf as auditwheel does."""
    out.parent.mkdir(parents=True, exist_ok=True)
    src = out.with_suffix(".c")
    src.write_text(source)
    cmd = ["gcc", "-shared", "-fPIC", "-o", str(out), str(src), *flags]
    if soname:
        cmd.insert(3, f"-Wl,-soname,{soname}")
    subprocess.run(cmd, check=True)
    src.unlink()
    for name in needed:
        subprocess.run(["patchelf", "--add-needed", name, str(out)], check=True)
    if rpath:
        subprocess.run(["patchelf", "--force-rpath", "--set-rpath", rpath, str(out)], check=True)
    return out


def build_wheel(folder: Path, dist: str, files: Dict[str, Path]) -> Path:
    """A real py3-none-any wheel holding ``files`` (archive name -> file), with a RECORD."""
    whl = folder / f"{dist}-1.0-py3-none-any.whl"
    info = f"{dist}-1.0.dist-info"
    payload = {rel: p.read_bytes() for rel, p in files.items()}
    payload[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n".encode()
    payload[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: dldoctor-tests\n"
                                b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    rows = []
    for rel, data in payload.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"{rel},sha256={digest},{len(data)}")
    rows.append(f"{info}/RECORD,,")
    payload[f"{info}/RECORD"] = ("\n".join(rows) + "\n").encode()
    with zipfile.ZipFile(whl, "w") as zf:
        for rel, data in payload.items():
            zf.writestr(rel, data)
    return whl


def install_wheels(venv: Path, *wheels: Path) -> None:
    pip_install(venv_python(venv), "--no-deps", "--no-index", *map(str, wheels))


def copy_packages(src_venv: Path, dst_venv: Path, *globs: str) -> Path:
    """Copy installed packages (folders + dist-info) between venvs: a throwaway real install
    to break without re-downloading wheels."""
    src, dst = site_packages(src_venv), site_packages(dst_venv)
    for pattern in globs:
        for item in src.glob(pattern):
            if item.is_dir():
                shutil.copytree(item, dst / item.name, symlinks=True)
            else:
                shutil.copy2(item, dst / item.name)
    return dst


def cached_wheel(name: str, *spec: str) -> Path:
    """A real wheel from the index, downloaded once into .cache/wheels."""
    folder = CACHE / "wheels"
    with cache_lock(f"wheels-{name}"):
        hits = sorted(folder.glob(f"{name}*.whl"))
        if not hits:
            pip_download(folder, *spec)
            hits = sorted(folder.glob(f"{name}*.whl"))
    assert hits, f"pip download {spec} left no {name} wheel"
    return hits[-1]
