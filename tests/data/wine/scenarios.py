"""Build the Windows loader scenarios (real DLLs, mingw-w64) and the operations that run them.

Every scenario uses its own DLL names so that all of them run in one process (one wine
start); the model replays the same operations on a :class:`WindowsProcess`.

Layout under ``base``: ``bin/loader.exe`` (the application folder), ``cwd/`` (empty working
folder), ``pathdir/`` and ``pollute/`` (on PATH), ``extra/`` (added with AddDllDirectory) and
one ``pkg*`` folder per scenario.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

HERE = Path(__file__).parent
CC64 = "x86_64-w64-mingw32-gcc"
CC32 = "i686-w64-mingw32-gcc"


@dataclass(frozen=True)
class Dll:
    """One DLL to build: where, which function it exports, what it imports."""

    path: str  # relative to base
    fn: str
    dep: str | None = None  # relative path of the DLL it imports (link target)
    fail_init: bool = False
    bits: int = 64


# Order matters: a DLL is built after the DLL it links against.
DLLS: Tuple[Dll, ...] = (
    # 1. polluting PATH folder: a plain load of pkgA/a1.dll binds the PATH copy of p1dep.dll
    Dll("pollute/p1dep.dll", "p1dep_fn"),
    Dll("pkgA/p1dep.dll", "p1dep_fn"),
    Dll("pkgA/a1.dll", "a1_fn", "pkgA/p1dep.dll"),
    # 2. same name in two folders, 0x1100: the DLL's own folder wins over PATH
    Dll("pollute/p2dep.dll", "p2dep_fn"),
    Dll("pkgA/p2dep.dll", "p2dep_fn"),
    Dll("pkgA/a2.dll", "a2_fn", "pkgA/p2dep.dll"),
    # 3. 0x1100 ignores PATH (126), then torch's retry: plain LoadLibraryW finds it on PATH
    Dll("pathdir/onpath.dll", "onpath_fn"),
    Dll("pkgB/b1.dll", "b1_fn", "pathdir/onpath.dll"),
    # 4. AddDllDirectory folder beats PATH under 0x1100
    Dll("extra/cdep.dll", "cdep_fn"),
    Dll("pathdir/cdep.dll", "cdep_fn"),
    Dll("pkgC/c1.dll", "c1_fn", "extra/cdep.dll"),
    # 5. a name already loaded wins over the DLL's own folder
    Dll("pkgD1/shared.dll", "shared_fn"),
    Dll("pkgD2/shared.dll", "shared_fn"),
    Dll("pkgD2/d2.dll", "d2_fn", "pkgD2/shared.dll"),
    # 6. DllMain returns FALSE in a dependency: 1114
    Dll("pkgE/efail.dll", "efail_fn", fail_init=True),
    Dll("pkgE/e1.dll", "e1_fn", "pkgE/efail.dll"),
    # 7. a 32-bit DLL loaded into a 64-bit process: 193
    Dll("pkgF/x86.dll", "x86_fn", bits=32),
    # 8. a 32-bit copy in the DLL's folder is skipped; the 64-bit copy in extra/ binds
    Dll("extra/w32dep.dll", "w32dep_fn"),
    Dll("pkgF2/f2.dll", "f2_fn", "extra/w32dep.dll"),
    Dll("pkgF2/w32dep.dll", "w32dep_fn", bits=32),
    # 9. only a 32-bit copy of an import exists
    Dll("scratch/w32only.dll", "w32only_fn"),
    Dll("pkgF3/f3.dll", "f3_fn", "scratch/w32only.dll"),
    Dll("pkgF3/w32only.dll", "w32only_fn", bits=32),
    # 10. 0x1000 without DLL_LOAD_DIR: the DLL's own folder is not searched
    Dll("pkgG/gdep.dll", "gdep_fn"),
    Dll("pkgG/g1.dll", "g1_fn", "pkgG/gdep.dll"),
    # 11. plain LoadLibraryW of a full path: its own folder is not searched for its imports
    Dll("pkgI/idep.dll", "idep_fn"),
    Dll("pkgI/i1.dll", "i1_fn", "pkgI/idep.dll"),
    # 12. 0x1100: the loaded DLL's folder serves its imports' imports too
    Dll("pkgH/h3.dll", "h3_fn"),
    Dll("pkgH/h2.dll", "h2_fn", "pkgH/h3.dll"),
    Dll("pkgH/h1.dll", "h1_fn", "pkgH/h2.dll"),
    # 13. a truncated copy of an import in the DLL's folder, a whole one in extra/
    Dll("extra/jdep.dll", "jdep_fn"),
    Dll("pkgJ/jdep.dll", "jdep_fn"),
    Dll("pkgJ/j1.dll", "j1_fn", "pkgJ/jdep.dll"),
    # 14. a file that is not a PE image at all under the import's name, a real one in extra/
    Dll("extra/kdep.dll", "kdep_fn"),
    Dll("pkgK/kdep.dll", "kdep_fn"),
    Dll("pkgK/k1.dll", "k1_fn", "pkgK/kdep.dll"),
    # 15. a truncated DLL loaded by full path
    Dll("pkgL/l1.dll", "l1_fn"),
)
#: Files spoiled after the build: path -> what they become ("half": the first half of the
#: real DLL, as an interrupted download leaves it; "text": not an image at all).
SPOILED = {"pkgJ/jdep.dll": "half", "pkgK/kdep.dll": "text", "pkgL/l1.dll": "half"}

# (op, argument) with paths relative to base; the test turns them into Windows paths.
OPS: Tuple[Tuple[str, str], ...] = (
    ("load", "0,pkgA/a1.dll"),
    ("mod", "p1dep.dll"),
    ("load", "1100,pkgA/a2.dll"),
    ("mod", "p2dep.dll"),
    ("load", "1100,pkgB/b1.dll"),
    ("load", "0,pkgB/b1.dll"),
    ("mod", "onpath.dll"),
    ("dir", "extra"),
    ("load", "1100,pkgC/c1.dll"),
    ("mod", "cdep.dll"),
    ("load", "0,pkgD1/shared.dll"),
    ("load", "1100,pkgD2/d2.dll"),
    ("mod", "shared.dll"),
    ("load", "1100,pkgE/e1.dll"),
    ("mod", "efail.dll"),
    ("load", "0,pkgF/x86.dll"),
    ("load", "1100,pkgF2/f2.dll"),
    ("mod", "w32dep.dll"),
    ("load", "1100,pkgF3/f3.dll"),
    ("load", "1000,pkgG/g1.dll"),
    ("load", "0,pkgI/i1.dll"),
    ("mod", "idep.dll"),
    ("load", "1100,pkgH/h1.dll"),
    ("mod", "h2.dll"),
    ("mod", "h3.dll"),
    ("load", "1100,pkgJ/j1.dll"),
    ("mod", "jdep.dll"),
    ("load", "1100,pkgK/k1.dll"),
    ("mod", "kdep.dll"),
    ("load", "0,pkgL/l1.dll"),
)
PATH_DIRS = ("pathdir", "pollute")


def _run(cmd: List[str]) -> None:
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def build(base: Path) -> Path:
    """Build loader.exe and every DLL under ``base``; return the exe's path."""
    for sub in ("bin", "cwd"):
        (base / sub).mkdir(parents=True, exist_ok=True)
    exe = base / "bin" / "loader.exe"
    _run([CC64, "-municode", "-O1", "-o", str(exe), str(HERE / "loader.c")])
    for dll in DLLS:
        out = base / dll.path
        out.parent.mkdir(parents=True, exist_ok=True)
        cmd = [
            CC64 if dll.bits == 64 else CC32,
            "-shared",
            "-O1",
            "-o",
            str(out),
            str(HERE / "node.c"),
        ]
        cmd.append(f"-DEXPORT_FN={dll.fn}")
        if dll.dep:
            dep_fn = next(d.fn for d in DLLS if d.path == dll.dep)
            cmd += [f"-DDEP_FN={dep_fn}", str(base / dll.dep)]
        if dll.fail_init:
            cmd.append("-DFAIL_INIT")
        _run(cmd)
    (base / "scratch" / "w32only.dll").unlink()
    for rel, how in SPOILED.items():
        path = base / rel
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2] if how == "half" else b"not a DLL\n" * 100)
    return exe
