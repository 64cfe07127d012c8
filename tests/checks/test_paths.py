"""path-pollution on real environments: a package's own folder, another environment's."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..builders import PLAIN
from ..conftest import check_json, site_packages, venv_python

# --- path-pollution ------------------------------------------------------------------


def test_own_torch_lib_on_ld_library_path(torch_venv: Path, tmp_path: Path) -> None:
    lib = site_packages(torch_venv) / "torch" / "lib"
    report = check_json("--python", str(venv_python(torch_venv)), env={**PLAIN, "LD_LIBRARY_PATH": str(lib)},
                        cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "path-pollution"]
    assert [f["severity"] for f in found] == ["warning"]
    assert "torch's own library folder" in found[0]["message"]


def test_other_env_folder_with_same_library_names_is_an_error(torch_venv: Path, venv_factory: Callable[..., Path],
                                                              tmp_path: Path) -> None:
    other = venv_factory(["--only-binary=:all:", "numpy"])
    libs = site_packages(other) / "numpy.libs"
    env = {**PLAIN, "LD_LIBRARY_PATH": f"{libs}:{site_packages(other) / 'numpy'}"}
    report = check_json("--python", str(venv_python(torch_venv)), env=env, cwd=tmp_path)
    found = sorted((f["severity"], f["message"]) for f in report["findings"] if f["slug"] == "path-pollution")
    assert found[0][0] == "error" and "libraries of the same name" in found[0][1]
    assert found[1][0] == "warning" and "another Python environment" in found[1][1]
