"""pythonpath-pollution and user-site-shadowing on real environments: each broken one is built
for real (pyenv interpreters, real wheels), the failing import is run to prove it broken, the
finding is asserted, then the fix dldoctor printed is run verbatim and the import works."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

from ..builders import PLAIN
from ..conftest import check_json, find_python, pip_install, site_packages, venv_python

NEW_API = "from typing_extensions import TypeIs"  # typing_extensions >= 4.10


def found(report: Dict[str, object], slug: str) -> List[Dict[str, str]]:
    return [f for f in report["findings"] if f["slug"] == slug]  # type: ignore[index,union-attr,misc]


def commands(fix: str) -> List[str]:
    """The shell commands a fix text gives (between backticks), home shown as ~ as printed."""
    return re.findall(r"`([^`]+)`", fix)


def run_import(python: Path, code: str, env: Dict[str, str], before: str = "") -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    """``code`` in ``python``, in a bash that first runs ``before`` (a printed fix, verbatim)."""
    script = (before + "\n" if before else "") + f"{python} -c '{code}'"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


def first_error(report: Dict[str, object]) -> str:
    errors = [f for f in report["findings"] if f["severity"] == "error"]  # type: ignore[index,union-attr]
    return errors[0]["slug"] if errors else ""  # type: ignore[no-any-return]


# --- pythonpath-pollution --------------------------------------------------------------


def test_pythonpath_into_another_environment_of_the_same_python(venv_factory: Callable[..., Path],
                                                                  tmp_path: Path) -> None:
    venv = venv_factory(["typing_extensions==4.12.2"])
    other = venv_factory(["typing_extensions==4.5.0"])
    env = {**PLAIN, "PYTHONPATH": str(site_packages(other))}
    broken = run_import(venv_python(venv), NEW_API, env)
    assert broken.returncode != 0 and "cannot import name 'TypeIs'" in broken.stderr
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "pythonpath-pollution")
    assert f["severity"] == "error" and first_error(report) == "pythonpath-pollution"
    assert "PYTHONPATH[0]" in f["message"] and "another environment's" in f["message"]
    assert "its typing_extensions 4.5.0 is imported, not the environment's 4.12.2" in f["message"]
    assert "duplicate-install" not in [x["slug"] for x in report["findings"]]  # one cause, said once
    (cmd,) = commands(f["fix"])
    assert cmd == "unset PYTHONPATH"
    assert run_import(venv_python(venv), NEW_API, env, before=cmd).returncode == 0


def test_pythonpath_into_another_python_version(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["numpy==2.2.6"], python=find_python("3.11"))
    other = venv_factory(["numpy==1.26.4"], python=find_python("3.10"))
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "helpers_of_mine.py").write_text("X = 1\n")
    env = {**PLAIN, "PYTHONPATH": f"{site_packages(other)}:{keep}"}
    broken = run_import(venv_python(venv), "import numpy", env)
    assert broken.returncode != 0 and "numpy" in broken.stderr
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "pythonpath-pollution")  # the user's own folder is not blamed
    assert first_error(report) == "pythonpath-pollution"
    assert "for Python 3.10, this is 3.11" in f["message"]
    assert "its numpy 1.26.4 is imported, not the environment's 2.2.6" in f["message"]
    assert "unsupported-python" not in [x["slug"] for x in report["findings"]]  # no --force-reinstall advice
    (cmd,) = commands(f["fix"])
    assert cmd == f"export PYTHONPATH={keep}"  # keeps the harmless entry
    fixed = run_import(venv_python(venv), "import numpy, helpers_of_mine; print(numpy.__version__)", env, before=cmd)
    assert fixed.returncode == 0 and fixed.stdout.strip() == "2.2.6", fixed.stderr


def test_pythonpath_source_checkout_shadowing_the_installed_package(venv_factory: Callable[..., Path],
                                                                     tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    checkout = tmp_path / "six-src"
    checkout.mkdir()
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='six')\n")
    (checkout / "six.py").write_text("raise ImportError('half-edited checkout')\n")
    env = {**PLAIN, "PYTHONPATH": str(checkout)}
    assert run_import(venv_python(venv), "import six", env).returncode != 0
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "pythonpath-pollution")
    assert "a source checkout" in f["message"] and "shadows the installed six" in f["message"]
    assert "shadowed-module" not in [x["slug"] for x in report["findings"]]
    (cmd,) = commands(f["fix"])
    assert run_import(venv_python(venv), "import six", env, before=cmd).returncode == 0


def test_pythonpath_is_quiet_when_healthy(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "helpers_of_mine.py").write_text("X = 1\n")
    extra = tmp_path / "extra"
    pip_install(venv_python(venv), "idna==3.10", target=extra)  # a package the env lacks, same Python
    for value in ("", str(mine), f"{mine}:{extra}"):
        env = {**PLAIN, "PYTHONPATH": value}
        code = "import six, idna" if "extra" in value else "import six"
        assert run_import(venv_python(venv), code, env).returncode == 0
        report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
        assert found(report, "pythonpath-pollution") == [], value


# --- user-site-shadowing ---------------------------------------------------------------


def user_site_of(python: str, env: Dict[str, str]) -> str:
    return subprocess.run([python, "-c", "import site; print(site.getusersitepackages())"],
                          env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout.strip()


def system_site_venv(tmp_path: Path, user_packages: List[str], own: List[str]) -> Tuple[Path, str, Dict[str, str]]:
    """A venv with system site packages on pyenv's 3.11, a private user site (PYTHONUSERBASE)
    holding ``user_packages`` as `pip install --user` writes them, and ``own`` in the venv."""
    base = find_python("3.11")
    env = {**PLAIN, "PYTHONUSERBASE": str(tmp_path / "userbase")}
    pip_install(Path(base), *user_packages, target=Path(user_site_of(base, env)))
    venv = tmp_path / "venv"
    subprocess.run([base, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)], check=True)
    if own:
        pip_install(venv_python(venv), *own)
    return venv, base, env


@pytest.mark.machine
def test_user_site_copy_shadows_the_base_copy_a_system_site_packages_venv_uses(tmp_path: Path) -> None:
    venv, base, env = system_site_venv(tmp_path, ["typing_extensions==4.5.0"], [])
    base_has = subprocess.run([base, "-s", "-c", NEW_API], capture_output=True, text=True)
    assert base_has.returncode == 0, "this test needs typing_extensions>=4.10 in pyenv's 3.11 site-packages"
    broken = run_import(venv_python(venv), NEW_API, env)
    assert broken.returncode != 0 and "cannot import name 'TypeIs'" in broken.stderr
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    (f,) = found(report, "user-site-shadowing")
    assert f["severity"] == "error" and first_error(report) == "user-site-shadowing"
    assert f["message"].startswith("typing_extensions 4.5.0 in the user site is imported, "
                                   "not the base Python's typing_extensions 4.")
    skip, remove = commands(f["fix"])
    assert skip == "export PYTHONNOUSERSITE=1"
    assert run_import(venv_python(venv), NEW_API, env, before=skip).returncode == 0
    # The venv's own pip would refuse (the copy lies outside the venv); the base's pip removes
    # the first copy on its own sys.path, which is the user site's.
    assert os.path.expanduser(remove).startswith(str(Path(base).parent.parent))
    assert remove.endswith("-m pip uninstall -y typing_extensions")
    first = run_import(Path(base), "import typing_extensions; print(typing_extensions.__file__)", env)
    assert first.stdout.startswith(str(tmp_path / "userbase")), "would not remove the user copy"
    done = subprocess.run(["bash", "-c", remove], capture_output=True, text=True, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert run_import(venv_python(venv), NEW_API, env).returncode == 0
    assert found(check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path), "user-site-shadowing") == []


@pytest.mark.machine
def test_user_site_is_quiet_when_the_venv_has_its_own_copy(tmp_path: Path) -> None:
    """The venv's own site-packages comes before the user site: an old --user copy is not
    imported (the real import proves it), and user-only packages are normal use."""
    venv, base, env = system_site_venv(tmp_path, ["typing_extensions==4.5.0", "toml==0.10.2"],
                                       ["typing_extensions==4.12.2"])
    assert subprocess.run([base, "-s", "-c", "import toml"], capture_output=True).returncode != 0  # user-only
    assert run_import(venv_python(venv), NEW_API + "; import toml", env).returncode == 0
    report = check_json("--python", str(venv_python(venv)), env=env, cwd=tmp_path)
    assert found(report, "user-site-shadowing") == [], found(report, "user-site-shadowing")[0]["message"]


@pytest.mark.machine
def test_pythonhome_of_another_installation_is_named_and_unset(tmp_path: Path) -> None:
    """PYTHONHOME moves a non-venv interpreter onto another prefix: its own site-packages
    disappear. The other installation is a prefix whose standard library links to the same
    files, with its own (nearly empty) site-packages."""
    base = Path(find_python("3.11"))
    stdlib = base.parent.parent / "lib" / "python3.11"
    other = tmp_path / "other"
    (other / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    for entry in stdlib.iterdir():
        if entry.name != "site-packages":
            (other / "lib" / "python3.11" / entry.name).symlink_to(entry)
    own = subprocess.run([str(base), "-s", "-c", "import six"], capture_output=True)
    assert own.returncode == 0, "this test needs six in pyenv's 3.11 site-packages"
    env = {**PLAIN, "PYTHONHOME": str(other)}
    assert run_import(base, "import six", env).returncode != 0
    report = check_json("--python", str(base), env=env, cwd=tmp_path)
    (f,) = found(report, "pythonpath-pollution")
    assert f["message"].startswith(f"PYTHONHOME={other} is set") and f["severity"] == "error"
    (cmd,) = commands(f["fix"])
    assert cmd == "unset PYTHONHOME"
    assert run_import(base, "import six", env, before=cmd).returncode == 0
    # Its own installation as PYTHONHOME changes nothing: quiet.
    same = check_json("--python", str(base), env={**PLAIN, "PYTHONHOME": str(base.parent.parent)}, cwd=tmp_path)
    assert found(same, "pythonpath-pollution") == []


def test_abi3_wheel_on_pythonpath_is_not_another_python() -> None:
    """cp39-abi3 is one build for 3.9 and every later CPython: no "for Python 3.9" here."""
    from dldoctor.snapshot.model import PythonPathEntry

    from ..builders import distribution, messages, snapshot

    folder = "/work/extra"
    abi3 = distribution("cryptography", "44.0.0", location=folder)
    snap = snapshot(interpreter__version_info=(3, 11, 7), interpreter__prefix="/env",
                    python_path=(PythonPathEntry(folder, 0, exists=True),),
                    distributions=(dataclasses.replace(abi3, tags=("cp39-abi3-manylinux_2_28_x86_64",)),))
    assert messages(snap, "pythonpath-pollution") == []
    cp39 = dataclasses.replace(abi3, tags=("cp39-cp39-manylinux_2_28_x86_64",))
    (msg,) = messages(dataclasses.replace(snap, distributions=(cp39,)), "pythonpath-pollution")
    assert "for Python 3.9, this is 3.11" in msg
