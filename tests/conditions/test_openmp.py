"""The one OpenMP runtime table: every consumer (static check, probe, wheel-set simulator)
names the same files the same way, including the Windows names the probe used to miss."""

from __future__ import annotations

import pytest

from dldoctor.conditions import DataError
from dldoctor.conditions.openmp import clash, openmp_runtime, parse_clashes
from dldoctor.probe.loaded import openmp_runtimes
from dldoctor.probe.model import LoadedLibrary


@pytest.mark.parametrize(("name", "family"), [
    ("/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0", "GNU libgomp"),
    ("/env/scikit_learn.libs/libgomp-a34b3233.so.1.0.0", "GNU libgomp"),
    ("C:\\msys64\\mingw64\\bin\\libgomp-1.dll", "GNU libgomp"),
    ("/opt/homebrew/lib/libgomp.1.dylib", "GNU libgomp"),
    ("C:\\env\\Lib\\site-packages\\torch\\lib\\libiomp5md.dll", "Intel libiomp5"),
    ("/env/lib/libiomp5.so", "Intel libiomp5"),
    ("C:\\Windows\\System32\\libomp140.x86_64.dll", "LLVM libomp"),
    ("/usr/lib/llvm-14/lib/libomp.so.5", "LLVM libomp"),
    ("/usr/local/lib/libomp.dylib", "LLVM libomp"),
    ("C:\\Windows\\System32\\VCOMP140.DLL", "MSVC vcomp"),
    ("C:\\env\\scipy.libs\\vcomp140-6a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d.dll", "MSVC vcomp"),
])
def test_every_runtime_name_has_one_family(name: str, family: str) -> None:
    assert openmp_runtime(name) == family
    assert openmp_runtimes([LoadedLibrary(name)]) == [(family, LoadedLibrary(name))]


@pytest.mark.parametrize("name", ["/a/libgompish.so", "/a/libc.so.6", "C:\\x\\vcruntime140.dll",
                                  "/a/libomptarget.so", "C:\\x\\libiomp5md.pdb"])
def test_other_libraries_are_not_runtimes(name: str) -> None:
    assert openmp_runtime(name) is None


@pytest.mark.parametrize(("families", "warns"), [
    ({"Intel libiomp5", "LLVM libomp"}, True),  # OMP: Error #15 (threadpoolctl's one known pair)
    ({"Intel libiomp5", "LLVM libomp", "GNU libgomp"}, True),
    ({"Intel libiomp5", "GNU libgomp"}, False),  # paddlepaddle's Linux wheel, by design
    ({"Intel libiomp5", "MSVC vcomp"}, False),  # paddlepaddle's Windows wheel, by design
    ({"GNU libgomp", "MSVC vcomp"}, False),
])
def test_only_pairs_known_to_clash_warn(families: set, warns: bool) -> None:
    assert (clash(families) is not None) is warns


@pytest.mark.parametrize("row", [{"families": ["Intel libiomp5"], "why": "x"},
                                 {"families": ["Intel libiomp5", "Borland omp"], "why": "x"},
                                 {"families": ["Intel libiomp5", "Intel libiomp5"], "why": "x"},
                                 {"families": ["Intel libiomp5", "LLVM libomp"]}])
def test_a_clash_row_names_two_known_runtimes_and_why(row: dict) -> None:
    with pytest.raises(DataError):
        parse_clashes({"clash": [row]}, ["Intel libiomp5", "LLVM libomp"])
