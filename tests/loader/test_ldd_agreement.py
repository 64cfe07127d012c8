"""The Linux model against ldd on every ELF of a real torch (CPU) + numpy + scipy venv."""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest
from ldd_agreement import agreement
from oracles import model, run_ldd


@pytest.mark.slow
def test_every_elf_of_the_venv_agrees_with_ldd(torch_venv: Path) -> None:
    files, names, mismatches = agreement(torch_venv)
    assert files > 200 and names > 1000
    assert mismatches == []


@pytest.mark.slow
def test_inherited_rpath_is_judged_in_the_requesting_context(torch_venv: Path) -> None:
    """scipy.libs' libgfortran has no RPATH: alone (as ldd sees it) its libquadmath is "not
    found"; loaded by a scipy extension it is found through the extension's inherited RPATH."""
    site = glob.glob(str(torch_venv / "lib" / "python3*" / "site-packages"))[0]
    lonely = [
        g
        for g in glob.glob(os.path.join(site, "scipy.libs", "libgfortran-*"))
        if any(p is None and n.startswith("libquadmath") for n, p in run_ldd(g).items())
    ]
    assert lonely, "expected a libgfortran without RPATH in scipy.libs"
    alone = model(lonely[0])
    assert [e.resolution.rule for e in alone.missing] == ["not-found"]
    ext = glob.glob(os.path.join(site, "scipy", "linalg", "_fblas*.so"))[0]
    graph = model(ext)
    quad = [
        e.resolution
        for e in graph.edges
        if e.requester == os.path.realpath(lonely[0])
        and e.resolution.name.startswith("libquadmath")
    ]
    assert [r.rule for r in quad] == ["rpath-inherited"]
    assert graph.missing == ()
    assert run_ldd(ext)[quad[0].name] == quad[0].path
