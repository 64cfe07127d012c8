"""Fetch the wheels a requirements file resolves to for a foreign platform, with pip.

``pip download --only-binary=:all: --platform TAG --python-version X.Y`` resolves exactly as
pip would on that platform; its output folder is keyed by the requirements' text and the
target, under the user cache folder, so a second run reuses the wheels without asking pip.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Set

from dldoctor.errors import DldoctorError
from dldoctor.inputs import InputError, read_capped
from dldoctor.wheelset.extract import cache_root

TIMEOUT_S = 1800.0
DONE = ".complete"
# pip is handed the file itself and follows its includes: what it would choke or wait on is
# refused here first. A requirement line is short; pip took minutes over one 12 MB line.
MAX_LINE = 64 * 1024
MAX_INCLUDES = 100
_INCLUDE = re.compile(r"^[ \t]*(?:-r|-c|--requirement|--constraint)(?:[ \t]*=[ \t]*|[ \t]*)(\S+)", re.M)


def download_requirements(
    requirements: str, platform: str, python_version: str, cache: Optional[Path] = None
) -> List[str]:
    """The wheel files ``requirements`` resolves to on ``platform`` / ``python_version``."""
    text = _requirements_text(requirements, f"-r {requirements}")
    _check_includes(text, Path(requirements).resolve().parent, set())
    key = hashlib.sha256(f"{platform}\n{python_version}\n{text}".encode()).hexdigest()[:16]
    dest = (cache or cache_root() / "downloads") / f"{platform}-py{python_version}-{key}"
    if not (dest / DONE).is_file():
        dest.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--platform", platform,
               "--python-version", python_version, "-d", str(dest), "-r", str(Path(requirements).resolve())]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S, check=False, stdin=subprocess.DEVNULL,
                                  cwd=str(Path(requirements).resolve().parent))
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DldoctorError(f"pip download failed: {exc}") from None
        if done.returncode != 0:
            lines = [ln for ln in done.stderr.decode("utf-8", "replace").splitlines() if ln.startswith("ERROR")]
            raise DldoctorError(f"pip download failed: {lines[-1] if lines else f'exit status {done.returncode}'}")
        (dest / DONE).write_text("", encoding="utf-8")
    return sorted(str(p) for p in dest.glob("*.whl"))


def _requirements_text(path: str, label: str) -> str:
    """The text of one requirements file: a regular file, UTF-8, no line pip would choke on."""
    got = read_capped(path, label)
    if got.skipped:
        raise DldoctorError(f"{label}: larger than 32 MiB; not a requirements file")
    try:
        text = got.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DldoctorError(f"{label}: cannot read ({exc})") from None
    for no, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE:
            raise DldoctorError(f"{label}: line {no} is {len(line):,} characters long; not a requirements file")
    return text


def _check_includes(text: str, folder: Path, seen: Set[Path]) -> None:
    """Every file ``text`` includes (``-r``/``-c``, relative to its own folder, as pip reads
    them) is checked like the first: a FIFO there made pip wait for 30 minutes."""
    for m in _INCLUDE.finditer(text):
        name = m.group(1)
        if "://" in name:
            continue  # a URL: pip fetches it, with its own timeout
        path = (folder / name).resolve()
        if path in seen:
            continue
        seen.add(path)
        if len(seen) > MAX_INCLUDES:
            raise DldoctorError(f"-r: more than {MAX_INCLUDES} included requirements files")
        try:
            _check_includes(_requirements_text(str(path), f"-r {name}"), path.parent, seen)
        except InputError as exc:
            raise DldoctorError(str(exc)) from None
