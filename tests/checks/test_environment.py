"""Each foundation check, triggered by a real broken situation and quiet on a clean one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

from dldoctor.snapshot.collect import collect_snapshot

from ..conftest import check_json, find_python, pip_install, site_packages, slugs, venv_python

PLAIN = {"PATH": os.environ["PATH"], "LD_LIBRARY_PATH": "", "PYTHONPATH": ""}


def record_files(site: Path, dist_glob: str) -> int:
    record = next(site.glob(dist_glob)) / "RECORD"
    return sum(1 for line in record.read_text().splitlines() if line.strip())


# --- shadowed-module -----------------------------------------------------------------


def test_torch_py_in_working_folder_is_an_error_with_the_file_as_evidence(torch_venv: Path, tmp_path: Path) -> None:
    (tmp_path / "torch.py").write_text("print('my experiment')\n")
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    shadow = [f for f in report["findings"] if f["slug"] == "shadowed-module"]
    assert len(shadow) == 1 and shadow[0]["severity"] == "error"
    assert any(e["value"].endswith("torch.py") for e in shadow[0]["evidence"])


def test_clean_torch_venv_has_no_error_finding(torch_venv: Path, tmp_path: Path) -> None:
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert slugs(report, "error") == [], report["findings"]
    facts = {f["label"]: f["value"] for f in report["facts"]}
    assert facts["torch"].startswith("2.13.0") and "(CPU)" in facts["torch"]


def test_namespace_folder_does_not_shadow(torch_venv: Path, tmp_path: Path) -> None:
    (tmp_path / "torch").mkdir()  # no __init__.py: a namespace portion, import goes on
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert "shadowed-module" not in slugs(report)
    (tmp_path / "torch" / "__init__.py").write_text("")
    report = check_json("--python", str(venv_python(torch_venv)), cwd=tmp_path, env=PLAIN)
    assert "shadowed-module" in slugs(report, "error")


# --- interpreter-mismatch ------------------------------------------------------------


def test_pip_of_another_env_first_on_path(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    a, b = venv_factory(), venv_factory(["pip"])
    only_pip = tmp_path / "pip-only"
    only_pip.mkdir()
    shutil.copy2(b / "bin" / "pip", only_pip / "pip")  # the real console script of env b
    path = os.pathsep.join([str(only_pip), str(a / "bin")])
    report = check_json("--python", str(venv_python(a)), env={**PLAIN, "PATH": path}, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "interpreter-mismatch"]
    assert len(found) == 1 and found[0]["severity"] == "error"
    assert str(b) in found[0]["message"] and str(a) in found[0]["message"]
    # Same environment for both: quiet.
    path_ok = str(b / "bin")
    report = check_json("--python", str(venv_python(b)), env={**PLAIN, "PATH": path_ok}, cwd=tmp_path)
    assert "interpreter-mismatch" not in slugs(report)


# --- unsupported-python --------------------------------------------------------------


def test_cp311_wheel_on_python_312(tmp_path: Path) -> None:
    py311, py312 = find_python("3.11"), find_python("3.12")
    target = tmp_path / "shared-site"
    pip_install(Path(py311), "--only-binary=:all:", "markupsafe==3.0.3", target=target)
    env = {**PLAIN, "PYTHONPATH": str(target)}
    report = check_json("--python", py312, env=env, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "unsupported-python"]
    assert [f["severity"] for f in found] == ["error"]
    assert "MarkupSafe 3.0.3 was built for cp311-cp311-" in found[0]["message"]
    report = check_json("--python", py311, env=env, cwd=tmp_path)
    assert "unsupported-python" not in slugs(report)


# --- duplicate-install ---------------------------------------------------------------


def test_two_copies_of_one_distribution(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    extra = tmp_path / "extra"
    pip_install(venv_python(venv), "six==1.16.0", target=extra)
    report = check_json("--python", str(venv_python(venv)), env={**PLAIN, "PYTHONPATH": str(extra)}, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "duplicate-install"]
    assert len(found) == 1 and "six is installed 2 times: 1.16.0, 1.17.0" in found[0]["message"]
    assert "duplicate-install" not in slugs(check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path))


def test_pip_over_conda_in_a_conda_like_layout(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    (venv / "conda-meta").mkdir()
    (venv / "conda-meta" / "six-1.16.0-pyhd3eb1b0_1.json").write_text(json.dumps({"name": "six"}))
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "duplicate-install"]
    assert [f["severity"] for f in found] == ["warning"]
    assert "pip installed six 1.17.0 over conda's six" in found[0]["message"]


# --- corrupt-install -----------------------------------------------------------------


def test_missing_and_truncated_files(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0", "--only-binary=:all:", "markupsafe==3.0.3"])
    sp = site_packages(venv)
    n_six, n_ms = record_files(sp, "six-*.dist-info"), record_files(sp, "markupsafe-*.dist-info")
    clean = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "corrupt-install" not in slugs(clean)
    (sp / "six.py").unlink()
    speedups = next((sp / "markupsafe").glob("_speedups*.so"))
    data = speedups.read_bytes()
    speedups.write_bytes(data[: len(data) // 2])  # an interrupted copy
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    msgs = sorted(f["message"] for f in report["findings"] if f["slug"] == "corrupt-install")
    assert msgs == [f"MarkupSafe 3.0.3: 1 of wrong size of {n_ms} files in RECORD",
                    f"six 1.17.0: 1 missing of {n_six} files in RECORD"], msgs


def test_edited_file_found_only_with_verify_hashes(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    six = site_packages(venv) / "six.py"
    n_six = record_files(site_packages(venv), "six-*.dist-info")
    text = six.read_text()
    six.write_text(text.replace("import", "IMPORT", 1))  # same size, other content
    quick = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "corrupt-install" not in slugs(quick)
    deep = check_json("--python", str(venv_python(venv)), "--verify-hashes", env=PLAIN, cwd=tmp_path)
    assert [f["message"] for f in deep["findings"] if f["slug"] == "corrupt-install"] == \
        [f"six 1.17.0: 1 with wrong content of {n_six} files in RECORD"]


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


# --- transitive-framework-import -----------------------------------------------------


def test_noisereduce_imports_torch_at_import_time(torch_venv: Path, tmp_path: Path) -> None:
    target = tmp_path / "extra"
    pip_install(venv_python(torch_venv), "--no-deps", "noisereduce==3.0.3", target=target)
    report = check_json("--python", str(venv_python(torch_venv)), env={**PLAIN, "PYTHONPATH": str(target)},
                        cwd=tmp_path)
    found = [f for f in report["findings"] if f["slug"] == "transitive-framework-import"]
    assert len(found) == 1 and found[0]["message"].startswith("import noisereduce imports torch")
    chain = [e["value"] for e in found[0]["evidence"] if e["label"].startswith("step")]
    assert chain[0].startswith("noisereduce/__init__.py:")
    assert chain[-1] in ("noisereduce/noisereduce.py:5", "noisereduce/spectralgate/__init__.py:4")


def test_no_framework_no_import_analysis(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["--no-deps", "noisereduce==3.0.3"])
    report = check_json("--python", str(venv_python(venv)), env=PLAIN, cwd=tmp_path)
    assert "transitive-framework-import" not in slugs(report)


# --- snapshot on every supported Python ----------------------------------------------


def test_snapshot_with_each_pyenv_python(tmp_path: Path) -> None:
    from ..conftest import PYTHONS, run_dldoctor

    for version in PYTHONS:
        py = find_python(version)
        done = run_dldoctor("snapshot", "--python", py, cwd=tmp_path)
        assert done.returncode == 0, (version, done.stderr)
        snap = json.loads(done.stdout)
        assert snap["interpreter"]["version"].startswith(version + "."), version
        assert snap["distributions"], version


def test_collector_survives_a_hostile_working_folder(torch_venv: Path, tmp_path: Path) -> None:
    # json.py / os-like names in the working folder must not hijack the collector.
    (tmp_path / "json.py").write_text("raise SystemExit('hijacked')\n")
    (tmp_path / "csv.py").write_text("raise SystemExit('hijacked')\n")
    snap = collect_snapshot(str(venv_python(torch_venv)), cwd=str(tmp_path))
    assert snap.framework("torch") is not None


def test_broken_metadata_is_a_finding_not_a_crash(venv_factory: Callable[..., Path], tmp_path: Path) -> None:
    venv = venv_factory(["six==1.17.0"])
    meta = next(site_packages(venv).glob("six-*.dist-info"))
    (meta / "METADATA").write_bytes(b"\xff\xfe garbage without headers\n")
    (meta / "RECORD").write_text('"unterminated,\n')
    done = subprocess.run([sys.executable, "-m", "dldoctor", "check", "--python", str(venv_python(venv))],
                          capture_output=True, text=True, env={**os.environ, **PLAIN}, cwd=tmp_path)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    assert "METADATA has no Name" in done.stdout
