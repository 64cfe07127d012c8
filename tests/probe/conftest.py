"""Real fixtures for the probes: extension modules compiled with gcc/g++ at test time
against the target interpreter's headers, and a real torch CPU venv in .cache/venvs/.

Nothing here is faked: the order conflict, the crash, the hang, the two OpenMP runtimes and
the old libstdc++ are produced by the real dynamic loader in a real child interpreter.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sysconfig
import zipfile
from pathlib import Path
from typing import Dict, Iterable

import pytest

from ..builders import fetch
from ..conftest import venv_python

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests" / "data" / "probe"


def _run(argv: Iterable[str]) -> None:
    argv = [str(a) for a in argv]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")


def _dist_info(site: Path, name: str, files: Iterable[Path]) -> None:
    """A minimal installed-distribution record, as pip would leave it."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n\n")
    rows = []
    for f in files:
        digest = hashlib.sha256(f.read_bytes()).hexdigest()
        rows.append(f"{f.relative_to(site).as_posix()},sha256={digest},{f.stat().st_size}")
    rows.append(f"{info.name}/METADATA,,")
    rows.append(f"{info.name}/RECORD,,")
    (info / "RECORD").write_text("\n".join(rows) + "\n")


class Site:
    """A folder on PYTHONPATH holding the fixture modules, and how to reach it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def env(self) -> Dict[str, str]:
        return {"PYTHONPATH": str(self.path)}

    def lib(self, rel: str) -> str:
        return os.path.realpath(self.path / rel)


@pytest.fixture(scope="session")
def probe_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """Build every fixture module once per session (about 2 s of gcc)."""
    for tool in ("gcc", "g++", "patchelf"):
        assert shutil.which(tool), f"{tool} is required (apt-get install gcc g++ patchelf)"
    site = tmp_path_factory.mktemp("probe-site")
    inc = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert Path(inc, "Python.h").exists(), f"Python headers missing in {inc}"
    cc = ["gcc", "-shared", "-fPIC", "-O0", "-w"]

    def ext(name: str, *extra: str, libdir: str = "") -> Path:
        out = site / f"{name}{suffix}"
        rpath = [f"-Wl,-rpath,$ORIGIN/{libdir}", f"-L{site / libdir}"] if libdir else []
        _run([*cc, f"-I{inc}", f"-DMODNAME={name}", SRC / "ext.c", "-o", out, *rpath, *extra])
        return out

    # Two copies of libconflict.so.1 (one SONAME), each beside "its" extension.
    for name, flag in (("ext_a", "-DV1"), ("ext_b", "-DV2")):
        libs = site / f"{name}.libs"
        libs.mkdir()
        _run([*cc, flag, "-Wl,-soname,libconflict.so.1", SRC / "conflict.c", "-o",
              libs / "libconflict.so.1"])
    a = ext("ext_a", "-DCALL=f_v1", "-l:libconflict.so.1", libdir="ext_a.libs")
    b = ext("ext_b", "-DCALL=f_v2", "-l:libconflict.so.1", libdir="ext_b.libs")
    _dist_info(site, "pkg_a", [a, site / "ext_a.libs" / "libconflict.so.1"])
    _dist_info(site, "pkg_b", [b, site / "ext_b.libs" / "libconflict.so.1"])

    ext("ext_abort", "-DABORT")
    for script in ("hang_forever.py", "hang_with_child.py", "noisy.py"):
        shutil.copy(SRC / script, site / script)

    # Two OpenMP runtime families: the system's GNU libgomp, and Intel's libiomp5 (the real one
    # from the intel-openmp wheel) vendored beside ext_omp2, as torch/paddle wheels bring it.
    # Two copies of one family (libgomp + auditwheel's libgomp-<hash>) would not do: they load
    # side by side and work (scikit-learn's next to torch's), and no check warns about them.
    omp1 = ext("ext_omp1", "-DUSE_OMP", "-DCALL=omp_get_max_threads", "-fopenmp")
    vend = site / "ext_omp2.libs"
    vend.mkdir()
    with zipfile.ZipFile(fetch("intel-openmp==2026.2.0", platform="manylinux_2_28_x86_64")) as zf:
        member = next(n for n in zf.namelist() if n.endswith("/libiomp5.so"))
        (vend / "libiomp5.so").write_bytes(zf.read(member))
    omp2 = ext("ext_omp2", "-DUSE_OMP", "-DCALL=omp_get_max_threads", "-fopenmp",
               libdir="ext_omp2.libs")
    _run(["patchelf", "--replace-needed", "libgomp.so.1", "libiomp5.so", omp2])
    _dist_info(site, "pkg_omp1", [omp1])
    _dist_info(site, "pkg_omp2", [omp2, vend / "libiomp5.so"])
    # One family twice: a renamed copy of the system libgomp, as auditwheel vendors it.
    vend3 = site / "ext_omp3.libs"
    vend3.mkdir()
    gomp = subprocess.run(["gcc", "-print-file-name=libgomp.so.1"], capture_output=True,
                          text=True, check=True).stdout.strip()
    shutil.copy(os.path.realpath(gomp), vend3 / "libgomp-deadbeef.so.1")
    _run(["patchelf", "--set-soname", "libgomp-deadbeef.so.1", vend3 / "libgomp-deadbeef.so.1"])
    omp3 = ext("ext_omp3", "-DUSE_OMP", "-DCALL=omp_get_max_threads", "-fopenmp",
               libdir="ext_omp3.libs")
    _run(["patchelf", "--replace-needed", "libgomp.so.1", "libgomp-deadbeef.so.1", omp3])
    _dist_info(site, "pkg_omp3", [omp3, vend3 / "libgomp-deadbeef.so.1"])

    # An old libstdc++ stand-in beside ext_oldcxx, and a modern C++ extension.
    old = site / "ext_oldcxx.libs"
    old.mkdir()
    _run([*cc, f"-Wl,--version-script={SRC / 'oldcxx.map'}", "-Wl,-soname,libstdc++.so.6",
          SRC / "oldcxx.c", "-o", old / "libstdc++.so.6.0.19"])
    (old / "libstdc++.so.6").symlink_to("libstdc++.so.6.0.19")
    oldext = ext("ext_oldcxx", "-Wl,--no-as-needed", "-l:libstdc++.so.6", libdir="ext_oldcxx.libs")
    _dist_info(site, "pkg_oldcxx", [oldext, old / "libstdc++.so.6.0.19"])
    _run(["g++", "-shared", "-fPIC", "-O0", "-w", f"-I{inc}", SRC / "ext_cpp.cpp", "-o",
          site / f"ext_cpp{suffix}"])
    return Site(site)


@pytest.fixture(scope="session")
def torch_python(torch_venv: Path) -> str:
    """The interpreter of the suite's real torch CPU venv (tests/conftest.py builds it)."""
    return str(venv_python(torch_venv))
