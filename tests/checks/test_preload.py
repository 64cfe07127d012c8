"""LD_PRELOAD on real venvs: a compiled stand-in for an old libstdc++ (it defines only the
GLIBCXX_3.4 version node, as GCC 3.4's did) preloaded under a real C++ wheel (kiwisolver)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Callable, Dict, List

import pytest

from ..builders import PLAIN
from ..conftest import check_json, run_dldoctor, venv_python

SYSTEM_LIBSTDCXX = Path("/usr/lib/x86_64-linux-gnu/libstdc++.so.6")


def old_libstdcxx(folder: Path) -> Path:
    """A libstdc++.so.6 whose version nodes stop where GCC 4.1's did (GLIBCXX_3.4.8,
    CXXABI_1.3.1): what an old toolchain's or a vendor tool's copy provides."""
    folder.mkdir(parents=True, exist_ok=True)
    nodes = [f"GLIBCXX_3.4{'.' + str(i) if i else ''}" for i in range(9)] + ["CXXABI_1.3", "CXXABI_1.3.1"]
    script, code = [], []
    for i, node in enumerate(nodes):
        script.append(f"{node} {{ global: dld_stub_{i}; {'local: *;' if i == 0 else ''} }};")
        code.append(f"int dld_stub_{i}(void) {{ return {i}; }}")
    (folder / "v.map").write_text("\n".join(script) + "\n")
    (folder / "stub.c").write_text("\n".join(code) + "\n")
    out = folder / "libstdc++.so.6"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(out), "-Wl,-soname,libstdc++.so.6",
                    f"-Wl,--version-script={folder / 'v.map'}", str(folder / "stub.c")], check=True)
    return out


def run(python: Path, code: str, env: Dict[str, str], before: str = "") -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    script = (before + "\n" if before else "") + f"{python} -c '{code}'"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env={**os.environ, **env})


def found(report: Dict[str, object], slug: str) -> List[Dict[str, str]]:
    return [f for f in report["findings"] if f["slug"] == slug]  # type: ignore[index,union-attr,misc]


@pytest.mark.machine
def test_preloaded_old_libstdcxx_is_named_with_its_precedence_and_fix(venv_factory: Callable[..., Path],
                                                                      tmp_path: Path) -> None:
    venv = venv_factory(["kiwisolver==1.4.7"])
    old = old_libstdcxx(tmp_path / "old")
    env = {**PLAIN, "LD_PRELOAD": f"{old}"}
    broken = run(venv_python(venv), "import kiwisolver", env)
    assert broken.returncode != 0 and "GLIBCXX_3.4.9' not found" in broken.stderr, broken.stderr
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "glibcxx-too-old")
    assert f["severity"] == "error"
    assert f"LD_PRELOAD loads {old} before every other library" in f["message"]
    assert "GLIBCXX_3.4.9" in f["message"] and "_cext" in f["message"]
    assert "LD_LIBRARY_PATH" not in f["fix"]
    (cmd,) = re.findall(r"`([^`]+)`", f["fix"])
    assert cmd == "unset LD_PRELOAD"
    assert run(venv_python(venv), "import kiwisolver", env, before=cmd).returncode == 0
    # The probe sees the same copy load and says why it won.
    done = run_dldoctor("probe", "--python", str(venv_python(venv)), "kiwisolver", "--format", "json",
                        env=env, cwd=tmp_path)
    probe = json.loads(done.stdout)
    cxx = [x for x in probe["findings"] if x["slug"] == "glibcxx-too-old"]
    assert cxx and "LD_PRELOAD" in cxx[0]["message"] and "unset LD_PRELOAD" in cxx[0]["fix"], probe["findings"]


@pytest.mark.machine
def test_preload_is_quiet_when_the_preloaded_copy_has_every_version(venv_factory: Callable[..., Path],
                                                                     tmp_path: Path) -> None:
    venv = venv_factory(["kiwisolver==1.4.7"])
    env = {**PLAIN, "LD_PRELOAD": str(SYSTEM_LIBSTDCXX)}
    assert run(venv_python(venv), "import kiwisolver", env).returncode == 0
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    assert found(report, "glibcxx-too-old") == [] and found(report, "symbol-mismatch") == []
