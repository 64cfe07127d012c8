"""Long DT_NEEDED / import chains of real libraries, built fast.

Compiling a thousand libraries would take minutes, so two or three templates are built with
gcc (or mingw-w64) and every link of the chain is a byte copy of one of them with its own
name and its successor's name written over the template's: names of equal length, so every
offset stays valid and the result is as real a library as the template (ld.so and Wine load
the whole chain).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import List

from need_tool import need


def _renamed(data: bytes, pairs: List[tuple]) -> bytes:  # type: ignore[type-arg]
    for old, new in pairs:
        assert len(old) == len(new) and data.count(old) >= 1, (old, new)
        data = data.replace(old, new)
    return data


def elf_chain(folder: Path, depth: int) -> List[Path]:
    """``libq0000.so`` needs ``libq0001.so`` ... needs ``libq{depth}.so``; each finds the next
    through DT_RUNPATH ``$ORIGIN``. Returns the libraries, root first."""
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / "q.c"
    src.write_text("int q(void) { return 1; }\n")
    gcc = need("gcc")
    leaf = folder / "libq0001.so"
    subprocess.run([gcc, "-shared", "-fPIC", "-o", str(leaf), str(src), "-Wl,-soname,libq0001.so"],
                   check=True, capture_output=True)
    link = folder / "libq0000.so"
    subprocess.run([gcc, "-shared", "-fPIC", "-o", str(link), str(src), "-Wl,-soname,libq0000.so",
                    "-Wl,--no-as-needed", f"-L{folder}", "-l:libq0001.so", "-Wl,--enable-new-dtags",
                    "-Wl,-rpath,$ORIGIN"], check=True, capture_output=True)
    link_t, leaf_t = link.read_bytes(), leaf.read_bytes()
    out = []
    for i in range(depth + 1):
        me = f"libq{i:04d}.so".encode()
        path = folder / me.decode()
        if i < depth:
            data = _renamed(link_t, [(b"libq0001.so", f"libq{i + 1:04d}.so".encode()), (b"libq0000.so", me)])
        else:
            data = _renamed(leaf_t, [(b"libq0001.so", me)])
        path.write_bytes(data)
        out.append(path)
    return out


CHAIN_C = """
#include <windows.h>
#ifdef DEP_FN
__declspec(dllimport) int DEP_FN(void);
#endif
__declspec(dllexport) int EXPORT_FN(void)
{
#ifdef DEP_FN
    return DEP_FN() + 1;
#else
    return 1;
#endif
}
"""


def pe_chain(folder: Path, depth: int) -> List[Path]:
    """``d0000.dll`` imports ``d0001.dll`` ... imports ``d{depth}.dll`` (depth even), all in one
    folder. Even links export ``fa`` and import ``fb``, odd ones the other way round (a DLL
    cannot import the name it exports), the last exports ``fa`` and imports nothing."""
    assert depth % 2 == 0
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / "chain.c"
    src.write_text(CHAIN_C)
    cc = need("x86_64-w64-mingw32-gcc")

    def build(name: str, export: str, dep: str = "", dep_fn: str = "") -> bytes:
        cmd = [cc, "-shared", "-O1", "-o", str(folder / name), str(src), f"-DEXPORT_FN={export}"]
        if dep:
            cmd += [f"-DDEP_FN={dep_fn}", str(folder / dep)]
        subprocess.run(cmd, check=True, capture_output=True)
        return (folder / name).read_bytes()

    leaf = build("d0002.dll", "fa")
    odd = build("d0001.dll", "fb", "d0002.dll", "fa")
    even = build("d0000.dll", "fa", "d0001.dll", "fb")
    out = []
    for i in range(depth + 1):
        me = f"d{i:04d}.dll".encode()
        nxt = f"d{i + 1:04d}.dll".encode()
        if i == depth:
            data = _renamed(leaf, [(b"d0002.dll", me)])
        elif i % 2:
            data = _renamed(odd, [(b"d0002.dll", nxt), (b"d0001.dll", me)])
        else:
            data = _renamed(even, [(b"d0001.dll", nxt), (b"d0000.dll", me)])
        path = folder / me.decode()
        path.write_bytes(data)
        out.append(path)
    return out
