"""Report: dldoctor's Linux model against ``ldd`` for every ELF file of a venv.

Usage: python tests/loader/ldd_agreement.py VENV   (prints files, names, mismatches)

Each ELF is judged on its own, as ldd judges it (the file is the root). Per-context judgement
(scipy.libs' libgfortran finding libquadmath through the RPATH inherited from the extension
module that loads it) is tested separately in test_ldd_agreement.py.
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

sys.path.insert(0, str(Path(__file__).parent))
from oracles import compare_with_ldd


def elf_files(root: Path) -> Iterator[str]:
    """Every regular ELF file under ``root`` (sniffed by magic: what ldd could be asked)."""
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    yield path


def agreement(root: Path) -> Tuple[int, int, List[Tuple[str, str, object]]]:
    """(files, names compared, mismatches) over every ELF under ``root``."""
    files = sorted(elf_files(root))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results: List[Dict[str, object]] = list(pool.map(compare_with_ldd, files))
    names = sum(len(r["ldd"]) for r in results)  # type: ignore[arg-type]
    mismatches = [
        (f, n, v)
        for f, r in zip(files, results)
        for n, v in r["mismatches"].items()  # type: ignore[attr-defined]
    ]
    return len(files), names, mismatches


def main() -> int:
    default = next(iter(sorted(Path(".cache/venvs").glob("torch-*"))), Path(".cache/venvs/torch"))
    root = Path(sys.argv[1] if len(sys.argv) > 1 else default)
    files, names, mismatches = agreement(root)
    print(f"ELF files: {files}  names resolved by ldd: {names}  mismatches: {len(mismatches)}")
    for path, name, (ldd, ours) in mismatches:  # type: ignore[misc]
        print(f"  {path}: {name}: ldd={ldd} dldoctor={ours}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
