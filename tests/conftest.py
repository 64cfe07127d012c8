"""Fixtures that build real things: virtual environments, pyenv interpreters, the torch venv.

Everything heavy is created once per session under ``.cache/`` at the repository root
(gitignored) and reused by later runs, so CI pays for the torch wheel once.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence

import pytest

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
TORCH_REQ = ("torch==2.13.0", "numpy", "scipy")
PYTHONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")


def find_python(version: str) -> str:
    """A real interpreter of ``version`` (pyenv's, else one on PATH); fail loudly if none."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    hits = sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}")))
    if hits:
        return hits[-1]
    found = shutil.which(f"python{version}")
    if found:
        return found
    pytest.fail(f"no Python {version} on this machine (expected pyenv under {root})")


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def site_packages(venv: Path) -> Path:
    out = subprocess.run([str(venv_python(venv)), "-c", "import sysconfig;print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def pip_install(python: Path, *args: str, target: Optional[Path] = None) -> None:
    """Install with the test runner's pip into another interpreter (venvs stay pip-less)."""
    cmd = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
           "--disable-pip-version-check", "--no-input"]
    if target is not None:
        cmd += ["--target", str(target)]
    subprocess.run([*cmd, *args], check=True, stdout=subprocess.DEVNULL)


def pip_download(folder: Path, *args: str) -> None:
    """``pip download`` from the registry into ``folder``, ignoring this machine's pip config.

    A site pip.conf may cap releases (``torch<=2.14.1`` as a constraint) or add local indexes;
    a download of another platform's wheels must see the registry as a user's machine does.
    """
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull}
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "-d", str(folder), *args], check=True, env=env)


def make_venv(path: Path, python: Optional[str] = None, packages: Sequence[str] = ()) -> Path:
    subprocess.run([python or find_python("3.11"), "-m", "venv", "--without-pip", str(path)], check=True)
    if packages:
        pip_install(venv_python(path), *packages)
    return path


@contextlib.contextmanager
def cache_lock(name: str) -> Iterator[None]:
    """Hold an exclusive lock on one entry of ``.cache/`` across the test processes: the suite
    runs in parallel (pytest-xdist), and two workers that need the same venv, wheel or corpus
    must not build it at once. A lock of the kernel (flock): a killed worker leaves none held."""
    folder = CACHE / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{name}.lock").open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: `-p no:xdist` still runs the suite
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto``: twice the CPUs, at most 6. Most of the suite waits on
    subprocesses (pip, venvs, probes, Wine), not on a CPU."""
    return max(2, min(6, 2 * (os.cpu_count() or 1)))


def cached_venv(prefix: str, key_parts: Sequence[str], build: Callable[[Path], object]) -> Path:
    """``.cache/venvs/PREFIX-KEY``, built once by ``build(path)``: a marker file written last
    tells a complete venv from one a killed run left half-built (which is rebuilt).

    Tests read a cached venv and never change it (a test that runs a fix works on a copy), so
    its files are shared with the other cached venvs (:func:`share_file_contents`)."""
    key = hashlib.sha256(" ".join(key_parts).encode()).hexdigest()[:10]
    venv = CACHE / "venvs" / f"{prefix}-{key}"
    done = venv / ".complete"
    if done.exists():
        return venv
    with cache_lock(f"venv-{prefix}-{key}"):
        if not done.exists():  # another worker may have built it while this one waited
            if venv.exists():
                shutil.rmtree(venv)
            with cache_lock("blobs"):
                drop_unshared_blobs()
            venv.parent.mkdir(parents=True, exist_ok=True)
            build(venv)
            with cache_lock("blobs"):
                share_file_contents(venv)
            done.write_text("ok\n")
    return venv


BLOBS = CACHE / "blobs"
SHARE_MIN = 4096  # one disk block: smaller files cost a block each whether shared or not


def share_file_contents(tree: Path) -> None:
    """Replace each file of ``tree`` of 4 KiB or more by a hard link to one stored copy of its
    content (``.cache/blobs/SHA256-MODE``): seven cached venvs carry the same 1 GB of torch,
    and a new CI machine's disk is not ours to fill (a full disk failed CI).

    Safe because nothing writes into a cached venv in place: pip unlinks a file before it
    writes one of the same name, and Python replaces a stale ``.pyc`` by renaming."""
    BLOBS.mkdir(parents=True, exist_ok=True)
    for path in tree.rglob("*"):
        if path.is_symlink() or not path.is_file():
            continue
        info = path.stat()
        if info.st_size < SHARE_MIN or info.st_nlink > 1:
            continue
        digest = hashlib.sha256()
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        blob = BLOBS / f"{digest.hexdigest()}-{info.st_mode & 0o7777:o}"
        if blob.exists():
            spare = path.with_name(path.name + ".sharing")
            os.link(blob, spare)
            os.replace(spare, path)
        else:
            os.link(path, blob)


def drop_unshared_blobs() -> None:
    """Forget stored contents no venv links to any more (their venv was rebuilt or deleted)."""
    for blob in BLOBS.glob("*") if BLOBS.is_dir() else ():
        if blob.stat().st_nlink == 1:
            blob.unlink()


@pytest.fixture(scope="session")
def torch_venv() -> Path:
    """A real venv with the torch 2.13.0 CPU wheel, numpy and scipy (built once, cached)."""
    return cached_venv("torch", TORCH_REQ, lambda venv: make_venv(venv, packages=TORCH_REQ))


@pytest.fixture
def venv_factory(tmp_path: Path) -> Callable[..., Path]:
    counter = iter(range(1000))

    def make(packages: Sequence[str] = (), python: Optional[str] = None) -> Path:
        return make_venv(tmp_path / f"venv{next(counter)}", python, packages)

    return make


def run_dldoctor(*args: str, cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None,
                 input: Optional[str] = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    """Run the real CLI in a subprocess, as a user would."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    full_env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "dldoctor", *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, input=input, timeout=600)


def check_json(*args: str, **kw: object) -> Dict[str, object]:
    done = run_dldoctor("check", "--format", "json", *args, **kw)  # type: ignore[arg-type]
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def slugs(report: Dict[str, object], severity: Optional[str] = None) -> List[str]:
    return [f["slug"] for f in report["findings"]  # type: ignore[index,union-attr]
            if severity is None or f["severity"] == severity]


# Fixtures that need more of the machine than Python and pip from the registry: the torch
# wheel, pyenv interpreters, compilers (gcc, mingw, patchelf), Wine, the i386 interpreter,
# downloaded wheel corpora. A test that uses one of them (or a test marked `machine` or `slow`)
# is a `machine` test; `pytest -m "not machine"` is the fast subset that runs anywhere, without
# root or system packages (README, CONTRIBUTING).
MACHINE_FIXTURES = frozenset({
    "torch_venv", "venv_factory", "wheels", "python32", "wheel_dirs", "probe_site", "corpus", "tiny",
    "wine_env", "wine_scenarios", "system32", "venv_elves", "pe_files",
})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "machine: needs system packages, pyenv Pythons, the torch wheel or "
                                       "downloads (deselect with -m 'not machine')")


def pytest_collection_modifyitems(items: List[pytest.Item]) -> None:
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        if uses & MACHINE_FIXTURES or item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.machine)
