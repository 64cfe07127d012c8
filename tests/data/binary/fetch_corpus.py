"""Download the real-wheel corpus for the binary-reader oracle tests (not committed).

Each group is one ``pip download --no-deps --only-binary=:all: --platform``
call with pinned versions (so the corpus, and the agreement counts, stay the
same from run to run); the native files of each wheel are then unpacked
under ``<root>/<group>/files/<wheel>/``. A group that is already unpacked is
reused, so the test fixture costs nothing after the first run.

Usage: python tests/data/binary/fetch_corpus.py [ROOT]   (default: .cache/corpus)
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

#: group -> (pip --platform tag, pinned requirements). Chosen to cover PE32+
#: and PE32, thin arm64 / x86_64 and fat Mach-O, and foreign ELF machines
#: including big-endian s390x and 32-bit i686 / armv7l.
GROUPS: Dict[str, Tuple[str, List[str]]] = {
    "win_amd64": (
        "win_amd64",
        [
            "numpy==2.4.6",
            "scipy==1.17.1",
            "onnxruntime==1.31.1",
            "opencv-python-headless==5.0.0.93",
            "torch==2.13.0",
        ],
    ),
    "win32": ("win32", ["numpy==2.4.6"]),
    "macos_arm64": ("macosx_14_0_arm64", ["numpy==2.4.6", "scipy==1.17.1"]),
    "macos_x86_64": ("macosx_14_0_x86_64", ["numpy==2.4.6", "scipy==1.17.1"]),
    "macos_universal2": ("macosx_11_0_universal2", ["cryptography==48.0.1"]),
    "linux_aarch64": ("manylinux_2_28_aarch64", ["numpy==2.4.6"]),
    "linux_s390x": ("manylinux_2_17_s390x", ["charset-normalizer==3.5.2"]),
    "linux_ppc64le": ("manylinux_2_17_ppc64le", ["charset-normalizer==3.5.2"]),
    "linux_armv7l": ("manylinux_2_17_armv7l", ["charset-normalizer==3.5.2"]),
    "linux_i686": ("manylinux_2_17_i686", ["markupsafe==3.0.2", "msgpack==1.1.1"]),
}

NATIVE_SUFFIXES = (".so", ".pyd", ".dll", ".dylib")


def _is_native(member: str) -> bool:
    name = member.rsplit("/", 1)[-1].lower()
    return name.endswith(NATIVE_SUFFIXES) or ".so." in name


def _stamp(platform: str, reqs: List[str]) -> str:
    return hashlib.sha256(" ".join([platform, *reqs]).encode()).hexdigest()[:16]


def fetch_group(root: Path, group: str) -> Path:
    """Download and unpack one group; return its ``files`` folder."""
    platform, reqs = GROUPS[group]
    base = root / group
    files = base / "files"
    done = base / ".done"
    if done.exists() and done.read_text() == _stamp(platform, reqs):
        return files
    wheels = base / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
        "--only-binary=:all:", "--platform", platform, "--python-version", "3.11",
        "--implementation", "cp", "--dest", str(wheels), *reqs,
    ]  # fmt: skip
    subprocess.run(cmd, check=True)
    for whl in sorted(wheels.glob("*.whl")):
        target = files / whl.name[: -len(".whl")]
        with zipfile.ZipFile(whl) as zf:
            for member in zf.namelist():
                if _is_native(member) and not member.endswith("/"):
                    zf.extract(member, target)
        whl.unlink()  # the unpacked native files are all the tests read
    done.write_text(_stamp(platform, reqs))
    return files


def fetch_all(root: Path) -> Dict[str, Path]:
    return {group: fetch_group(root, group) for group in GROUPS}


if __name__ == "__main__":
    out = fetch_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".cache/corpus"))
    for group, path in out.items():
        count = sum(1 for p in path.rglob("*") if p.is_file())
        print(f"{group}: {count} native files under {path}")
