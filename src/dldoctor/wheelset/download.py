"""Fetch the wheels a requirements file resolves to for a foreign platform, with pip.

``pip download --only-binary=:all: --platform TAG --python-version X.Y`` resolves exactly as
pip would on that platform; its output folder is keyed by the requirements' text and the
target, under the user cache folder, so a second run reuses the wheels without asking pip.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

from dldoctor.errors import DldoctorError
from dldoctor.inputs import read_capped
from dldoctor.wheelset.extract import cache_root

TIMEOUT_S = 1800.0
DONE = ".complete"


def download_requirements(
    requirements: str, platform: str, python_version: str, cache: Optional[Path] = None
) -> List[str]:
    """The wheel files ``requirements`` resolves to on ``platform`` / ``python_version``."""
    got = read_capped(requirements, f"-r {requirements}")
    if got.skipped:
        raise DldoctorError(f"-r {requirements}: larger than 32 MiB; not a requirements file")
    try:
        text = got.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DldoctorError(f"-r {requirements}: cannot read ({exc})") from None
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
