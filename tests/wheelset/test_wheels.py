"""`dldoctor wheels` on real win_amd64 wheels: the conflicts they really have."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List

import jsonschema
import pytest

from dldoctor.binary import read_binary
from dldoctor.wheelset.extract import read_member
from dldoctor.wheelset.imports import analyse
from dldoctor.wheelset.install import install

from ..builders import fetch

SCHEMA = Path(__file__).resolve().parents[2] / "src" / "dldoctor" / "render" / "report.schema.json"
pytestmark = pytest.mark.slow


def wheels_json(*args: str) -> Dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "dldoctor", "wheels", "--format", "json", *args],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ), check=False)
    assert done.returncode in (0, 1), done.stderr
    report: Dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(report, json.loads(SCHEMA.read_text(encoding="utf-8")))
    report["exit"] = done.returncode
    return report


def found(report: Dict[str, Any], slug: str) -> List[str]:
    return [f["message"] for f in report["findings"] if f["slug"] == slug]


def test_member_read_agrees_with_whole_file(wheels: Dict[str, Path]) -> None:
    checked = 0
    for key in ("numpy", "scipy", "onnxruntime", "opencv", "pyarrow", "intel-openmp"):
        with zipfile.ZipFile(wheels[key]) as zf, tempfile.TemporaryDirectory() as tmp:
            for info in zf.infolist():
                if not info.filename.lower().endswith((".dll", ".pyd")):
                    continue
                member = read_member(zf, info).to_dict()
                whole = Path(tmp, "whole")
                whole.write_bytes(zf.read(info))
                expected = read_binary(str(whole)).to_dict()
                member["path"] = expected["path"] = ""
                assert member == expected, info.filename
                checked += 1
    assert checked > 100


def test_torch_and_paddle_bring_different_libiomp5md(wheels: Dict[str, Path]) -> None:
    vi = install([str(wheels["torch"]), str(wheels["paddle"])], vc_redist="14.44")
    (conflict,) = [c for c in analyse(vi).conflicts if c.name == "libiomp5md.dll"]
    versions = {d: f.version for d, f in conflict.copies.items()}
    assert versions == {"torch": "5.0.2026.828", "paddlepaddle": "5.0.2019.109"}
    assert conflict.winners[("paddlepaddle", "torch")].endswith("paddle\\libs\\libiomp5md.dll")
    assert conflict.winners[("torch", "paddlepaddle")].endswith("torch\\lib\\libiomp5md.dll")


def test_intel_openmp_and_torch_ship_the_same_bytes_no_conflict(wheels: Dict[str, Path]) -> None:
    vi = install([str(wheels["torch"]), str(wheels["intel-openmp"])], vc_redist="14.44")
    assert [c.name for c in analyse(vi).conflicts] == []


def test_pyarrow_before_torch_breaks_torch(wheels: Dict[str, Path]) -> None:
    report = wheels_json(str(wheels["pyarrow"]), str(wheels["torch"]), "--vc-redist", "14.44")
    assert report["exit"] == 1
    assert found(report, "import-order-conflict") == [
        "importing pyarrow before torch gives torch msvcp140.dll 14.28.29334.0 (< 14.40): built with MSVC 14.42: "
        "std::mutex's constexpr constructor needs msvcp140.dll >= 14.40; an older copy faults in c10.dll's "
        "initialisation (WinError 1114)"
    ]
    assert any(m.startswith("msvcp140.dll: 2 different copies") for m in found(report, "dll-version-conflict"))
    assert found(report, "missing-vc-runtime") == []


def test_stock_windows_lacks_the_vc_runtime_torch_imports(wheels: Dict[str, Path]) -> None:
    report = wheels_json(str(wheels["torch"]))
    (msg,) = found(report, "missing-vc-runtime")
    assert "msvcp140.dll" in msg and "vcruntime140_threads.dll" in msg and "vcruntime140.dll," not in msg
    old = wheels_json(str(wheels["torch"]), "--vc-redist", "14.36")
    assert found(old, "missing-vc-runtime") == [
        "msvcp140.dll 14.36 in System32 is older than 14.40, which torch 2.15.0 needs"]


def test_numeric_stack_is_clean(wheels: Dict[str, Path]) -> None:
    """delvewheel mangles the names it bundles (msvcp140-<hash>.dll): no shared name, nothing missing."""
    keys = ("numpy", "scipy", "onnxruntime", "opencv")
    report = wheels_json(*(str(wheels[k]) for k in keys), "--vc-redist", "14.44")
    assert report["exit"] == 0
    for slug in ("dll-version-conflict", "missing-shared-library", "wrong-architecture", "missing-vc-runtime"):
        assert found(report, slug) == [], slug


def test_paddle_and_torch_share_a_process_with_two_openmp_runtimes(wheels: Dict[str, Path]) -> None:
    report = wheels_json(str(wheels["torch"]), str(wheels["paddle"]), "--vc-redist", "14.44")
    assert found(report, "duplicate-openmp") == [
        "2 OpenMP runtimes in one process after importing every wheel: libiomp5md.dll, vcomp140.dll"]


def test_32bit_wheel_is_one_finding_about_its_platform() -> None:
    """A win32 wheel for a 64-bit Python: pip refuses its tag (unsupported-python in its wider
    sense, worded as the platform), and its x86 modules are that one cause, not one finding each."""
    report = wheels_json(str(fetch("numpy==2.4.6", platform="win32")), "--vc-redist", "14.44")
    assert found(report, "wrong-architecture") == []
    (tag,) = found(report, "unsupported-python")
    assert "win32, not for this interpreter's platform (win_amd64)" in tag


def test_requirements_are_downloaded_for_the_platform(tmp_path: Path) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("numpy==2.4.6\n", encoding="utf-8")
    report = wheels_json("-r", str(req), "--platform", "win_amd64", "--vc-redist", "14.44")
    assert report["exit"] == 0
    assert any(f["value"] == "numpy 2.4.6" for f in report.get("facts", [])) or "numpy 2.4.6" in json.dumps(report)


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "broken-1.0-py3-none-win_amd64.whl"
    bad.write_bytes(b"not a zip")
    done = subprocess.run([sys.executable, "-m", "dldoctor", "wheels", str(bad)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_check_judges_a_windows_snapshot_from_linux() -> None:
    snap = Path(__file__).resolve().parents[1] / "data" / "snapshots" / "win-seed000-laptop.json"
    done = subprocess.run([sys.executable, "-m", "dldoctor", "check", "--snapshot", str(snap), "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    slugs = {f["slug"] for f in json.loads(done.stdout)["findings"]}
    assert {"missing-vc-runtime", "hybrid-graphics", "pagefile-too-small", "gpu-driver-timeout",
            "cuda-toolkit-mismatch"} <= slugs


def test_two_wheels_writing_one_file_are_a_duplicate_install(wheels: Dict[str, Path]) -> None:
    """opencv-python and opencv-python-headless both write cv2\\cv2.pyd (OpenCV's own instructions:
    install only one): the one installed last replaces the other's."""
    headless = fetch("opencv-python-headless==5.0.0.93")
    with zipfile.ZipFile(wheels["opencv"]) as a, zipfile.ZipFile(headless) as b:
        pyd_a, pyd_b = a.getinfo("cv2/cv2.pyd"), b.getinfo("cv2/cv2.pyd")
        assert (pyd_a.file_size, pyd_a.CRC) != (pyd_b.file_size, pyd_b.CRC)  # the wheels themselves
    report = wheels_json(str(wheels["opencv"]), str(headless), str(wheels["numpy"]), "--vc-redist", "14.44")
    (dup,) = found(report, "duplicate-install")
    assert dup.startswith("opencv-python and opencv-python-headless both install ") and "cv2\\cv2.pyd" in dup
    assert found(wheels_json(str(wheels["opencv"]), str(wheels["numpy"])), "duplicate-install") == []


def test_a_folder_stands_for_its_wheels_and_their_tags_name_the_python(wheels: Dict[str, Path],
                                                                       tmp_path: Path) -> None:
    """`dldoctor wheels DIR` checks the .whl files in DIR, for the Python their cpXY tags name
    (cp311 here), and --order takes the names in any spelling."""
    folder = tmp_path / "set"
    folder.mkdir()
    for key in ("numpy", "opencv"):
        (folder / wheels[key].name).symlink_to(wheels[key])
    report = wheels_json(str(folder), "--order", "OpenCV_Python,NumPy")
    assert report["exit"] == 0
    facts = {f["label"]: f["value"] for f in report["facts"]}
    assert "CPython 3.11 venv" in facts["target"] and "no Visual C++ Redistributable" in facts["target"]
    assert facts["wheels"].startswith("numpy 2.4.6, opencv-python 5.0.0.93")
    redist = {f["label"]: f["value"] for f in wheels_json(str(folder), "--vc-redist", "14.44")["facts"]}
    assert "no Visual C++ Redistributable" not in redist["target"] and "redistributable 14.44" in redist["target"]
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-m", "dldoctor", "wheels", str(empty)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "a folder without .whl files" in done.stderr


def _tiny_wheel(folder: Path, dist: str, files: Dict[str, bytes]) -> Path:
    """A real win_amd64 wheel file of ``files`` (the overlap check reads names, sizes and CRCs)."""
    whl = folder / f"{dist}-1.0-py3-none-win_amd64.whl"
    info = f"{dist}-1.0.dist-info"
    with zipfile.ZipFile(whl, "w") as zf:
        for name, data in {**files, f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n".encode(),
                           f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: py3-none-win_amd64\n",
                           f"{info}/RECORD": b""}.items():
            zf.writestr(name, data)
    return whl


def test_only_different_bytes_at_one_path_are_an_overlap(tmp_path: Path) -> None:
    """Three wheels in one namespace folder: two ship the same empty ns\\__init__.py (nvidia-*
    wheels do), the third another one: only the pairs whose bytes differ are reported."""
    a = _tiny_wheel(tmp_path, "nsa", {"ns/__init__.py": b"", "ns/a/x.py": b"a = 1\n"})
    b = _tiny_wheel(tmp_path, "nsb", {"ns/__init__.py": b"", "ns/b/y.py": b"b = 1\n"})
    c = _tiny_wheel(tmp_path, "nsc", {"ns/__init__.py": b"# not empty\n"})
    tail = ("both install 1 file(s) with different content (ns\\__init__.py): the one installed last replaces "
            "the other's, and either package's code may then run against the other's files")
    assert sorted(found(wheels_json(str(a), str(b), str(c)), "duplicate-install")) == [
        f"{x} and nsc {tail}" for x in ("nsa", "nsb")]
    assert found(wheels_json(str(a), str(b)), "duplicate-install") == []


def test_an_old_vc_runtime_that_can_win_stays_a_warning(wheels: Dict[str, Path]) -> None:
    """PyQt5-Qt5 ships msvcp140.dll 14.26 in Qt5\\bin: imported first, it serves onnxruntime, built
    with MSVC 17.10+, which faults in it (microsoft/onnxruntime#26127, microsoft/STL#4730). Copies
    at or above 14.40 are interchangeable (info); this one is not."""
    pins = ("PyQt5==5.15.11", "PyQt5-Qt5==5.15.2", "PyQt5-sip==12.20.0", "onnxruntime==1.31.1", "numpy==2.4.6")
    report = wheels_json(*(str(fetch(p)) for p in pins), "--vc-redist", "14.44")
    loud = [f["message"] for f in report["findings"] if f["slug"] == "dll-version-conflict"
            and f["severity"] == "warning"]
    assert any(m.startswith("msvcp140.dll: 2 different copies") and "14.26" in m for m in loud), loud


def test_a_folder_of_two_releases_of_one_project_is_refused(wheels: Dict[str, Path], tmp_path: Path) -> None:
    for pin in ("onnxruntime==1.31.1", "onnxruntime==1.32.0"):
        (tmp_path / fetch(pin).name).symlink_to(fetch(pin))
    done = subprocess.run([sys.executable, "-m", "dldoctor", "wheels", str(tmp_path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "holds several wheels of onnxruntime" in done.stderr


def test_a_wheel_for_another_python_or_machine_is_one_finding(wheels: Dict[str, Path]) -> None:
    """A cp311 scipy and a win32 pillow in a set for 64-bit CPython 3.12: pip would refuse both
    (unsupported-python, once each); their modules' python311.dll and x86 .pyd are that cause,
    not a hundred more findings (the fresh-eyes review's broken set)."""
    report = wheels_json(str(fetch("scipy==1.17.1")), str(fetch("pillow==13.0.0", "win32")),
                         "--python-version", "3.12", "--vc-redist", "14.44")
    loud = sorted((f["slug"], f["message"]) for f in report["findings"] if f["severity"] in ("error", "warning"))
    assert [slug for slug, _ in loud] == ["unsupported-python", "unsupported-python"], loud
    assert [m.split(",")[0] for _, m in loud] == ["pillow 13.0.0 was built for cp311-cp311-win32",
                                                   "scipy 1.17.1 was built for cp311-cp311-win_amd64"]
