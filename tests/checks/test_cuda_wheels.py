"""pip's nvidia-* CUDA wheels overridden by a system CUDA on LD_LIBRARY_PATH
(pytorch/pytorch#111469, #134929, #152783: `undefined symbol: __nvJitLinkAddData_12_x`).

No CUDA library can be downloaded into a test, so the layout is built from compiled
stand-ins with the real wheels' names and links: an extension module (torch/_C's role) with
RUNPATH into nvidia/cusparse/lib, whose libcusparse.so.12 needs a symbol of the
nvidia-nvjitlink wheel's libnvJitLink.so.12, found through its own RUNPATH; an older
libnvJitLink.so.12 in a toolkit's lib64 lacks it. The real ld.so loads them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from ..builders import PLAIN
from ..conftest import check_json, find_python, site_packages, venv_python


def cc(out: Path, source: str, *flags: str) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    src = out.parent / (out.name.split(".")[0] + "_src.c")
    src.write_text(source)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(out), str(src), "-Wl,-z,now", *flags], check=True)
    return out


def dist_info(site: Path, name: str, version: str, files: List[str]) -> None:
    folder = site / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir()
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n")
    (folder / "INSTALLER").write_text("pip\n")
    rows = [*files, f"{folder.name}/METADATA,,", f"{folder.name}/RECORD,,"]
    (folder / "RECORD").write_text("\n".join(r if r.endswith(",,") else f"{r},," for r in rows) + "\n")


def cuda_wheel_venv(tmp_path: Path) -> Path:
    py = find_python("3.11")
    venv = tmp_path / "venv"
    subprocess.run([py, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = site_packages(venv)
    jit = "nvidia/nvjitlink/lib/libnvJitLink.so.12"
    sparse = "nvidia/cusparse/lib/libcusparse.so.12"
    ext = "standin/_C.cpython-311-x86_64-linux-gnu.so"
    cc(site / jit, "int __nvJitLinkAddData_12_4(void) { return 4; }\n", "-Wl,-soname,libnvJitLink.so.12")
    cc(site / sparse,
       "int __nvJitLinkAddData_12_4(void);\nint cusparseCreate(void) { return __nvJitLinkAddData_12_4(); }\n",
       "-Wl,-soname,libcusparse.so.12", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../../nvjitlink/lib",
       f"-L{(site / jit).parent}", "-l:libnvJitLink.so.12")
    include = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['include'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    cc(site / ext, "#include <Python.h>\nint cusparseCreate(void);\n"
       "static struct PyModuleDef m = {PyModuleDef_HEAD_INIT, \"_C\", 0, -1, 0};\n"
       "PyMODINIT_FUNC PyInit__C(void) { return cusparseCreate() == 4 ? PyModule_Create(&m) : 0; }\n",
       f"-I{include}", "-Wl,--no-as-needed", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../nvidia/cusparse/lib",
       f"-L{(site / sparse).parent}", "-l:libcusparse.so.12")
    (site / "standin" / "__init__.py").write_text("from . import _C\n")
    dist_info(site, "nvidia-nvjitlink-cu12", "12.4.127", [jit])
    dist_info(site, "nvidia-cusparse-cu12", "12.3.1.170", [sparse])
    dist_info(site, "standin", "1.0", [ext, "standin/__init__.py"])
    return venv


def toolkit(folder: Path, symbol: str) -> Path:
    cc(folder / "libnvJitLink.so.12", f"int {symbol}(void) {{ return 1; }}\n", "-Wl,-soname,libnvJitLink.so.12")
    return folder


def run(python: Path, env: Dict[str, str], before: str = "") -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    script = (before + "\n" if before else "") + f"{python} -c 'import standin'"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env={**os.environ, **env})


def found(report: Dict[str, object], slug: str) -> List[Dict[str, str]]:
    return [f for f in report["findings"] if f["slug"] == slug]  # type: ignore[index,union-attr,misc]


@pytest.mark.machine
def test_system_cuda_on_ld_library_path_shadows_the_nvidia_wheel(tmp_path: Path) -> None:
    venv = cuda_wheel_venv(tmp_path)
    assert run(venv_python(venv), PLAIN).returncode == 0  # the wheels' own copies work
    old = toolkit(tmp_path / "cuda-12.1" / "lib64", "__nvJitLinkAddData_12_1")
    other = tmp_path / "mylibs"
    other.mkdir()
    env = {**PLAIN, "LD_LIBRARY_PATH": f"{other}:{old}"}
    broken = run(venv_python(venv), env)
    assert broken.returncode != 0 and "undefined symbol: __nvJitLinkAddData_12_4" in broken.stderr, broken.stderr
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "ld-library-path-override")
    assert f["severity"] != "info"
    assert f"LD_LIBRARY_PATH's {old}/libnvJitLink.so.12 wins over nvidia-nvjitlink-cu12's own" in f["message"]
    (cmd,) = re.findall(r"`([^`]+)`", f["fix"])
    assert cmd == f"export LD_LIBRARY_PATH={other}"  # drops the toolkit's folder, keeps the rest
    assert run(venv_python(venv), env, before=cmd).returncode == 0


@pytest.mark.machine
def test_ld_library_path_without_those_names_is_quiet(tmp_path: Path) -> None:
    venv = cuda_wheel_venv(tmp_path)
    unrelated = tmp_path / "libs"
    cc(unrelated / "libfoo.so.1", "int foo(void) { return 1; }\n", "-Wl,-soname,libfoo.so.1")
    env = {**PLAIN, "LD_LIBRARY_PATH": str(unrelated)}
    assert run(venv_python(venv), env).returncode == 0
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    assert found(report, "ld-library-path-override") == []
    assert [f for f in report["findings"] if f["severity"] == "error"] == []
