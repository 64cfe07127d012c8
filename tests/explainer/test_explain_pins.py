"""A failed pin read against the wheel table (dldoctor.explainer.pins): "No matching
distribution found for torch==1.9.1" is the Python's fault when that release has no wheel for
it, and the table, pip's own list of releases and the text say which Python runs.

The table itself is checked against pip: `pip index versions` with a Python and a platform lists
exactly the releases the table says have a wheel for them (the oracle), and a real pip refusal
is explained from pip's own output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from dldoctor.conditions import DataError
from dldoctor.conditions import wheels as table
from dldoctor.explainer import diagnose_text, facts_from_mapping, facts_from_snapshot
from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.pins import (
    MAX_PINS,
    SIGNATURE,
    findings,
    interpreters,
    pins_of,
    platforms_of,
    python_of,
    verdict,
)
from dldoctor.explainer.weigh import Facts

CORPUS = Path(__file__).resolve().parent.parent / "data" / "explain"

# pip's own words (pip 23), as reports paste them
FAILED_191 = ("ERROR: Could not find a version that satisfies the requirement torch==1.9.1+cu111 "
              "(from versions: 0.1.2, 0.1.2.post1, 0.1.2.post2)\n"
              "ERROR: No matching distribution found for torch==1.9.1+cu111\n")


def _table_hits(text: str, facts: Optional[Facts] = None) -> List[str]:
    report = diagnose_text(text, facts=facts, words=False)
    return [c.slug for c in report.candidates for h in c.hits if h.signature == SIGNATURE]


def _reasons(text: str, facts: Optional[Facts] = None) -> List[str]:
    report = diagnose_text(text, facts=facts, words=False)
    return [v for c in report.candidates for k, v in c.evidence if k == "wheels"]


# ---------------------------------------------------------------- the table, against pip

#: platform tags pip is told for each table platform (pip does not widen an explicit --platform
#: to older manylinux or macOS tags, so each is named)
PIP_PLATFORMS = {
    "linux-x86_64": ["manylinux1_x86_64", "manylinux2010_x86_64", "manylinux2014_x86_64",
                     *(f"manylinux_2_{m}_x86_64" for m in range(17, 60))],
    "windows-x86_64": ["win_amd64"],
    "macos-arm64": [*(f"macosx_{v}_0_{arch}" for v in range(11, 27) for arch in ("arm64", "universal2")),
                    "macosx_10_9_universal2"],
}


def _pip_versions(dist: str, python: str, platforms: Sequence[str]) -> List[str]:
    flags = [x for p in platforms for x in ("--platform", p)]
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", dist, "--python-version", python,
                          *flags, "--only-binary=:all:", "--disable-pip-version-check"],
                         capture_output=True, text=True, env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    m = re.search(r"Available versions: (.*)", out.stdout)
    return [v for v in m.group(1).split(", ") if not Version(v).is_prerelease] if m else []


@pytest.mark.machine  # the registry
@pytest.mark.parametrize("dist, python, platform", [
    ("torch", "3.10", "linux-x86_64"),
    ("torch", "3.8", "windows-x86_64"),  # no 1.7.0: its cp38 wheel is tagged cp38m, which no 3.8 accepts
    ("onnxruntime", "3.12", "windows-x86_64"),
    ("tensorflow", "3.7", "linux-x86_64"),
    ("paddlepaddle", "3.9", "macos-arm64"),
])
def test_the_table_lists_what_pip_finds_for_a_python_and_platform(dist: str, python: str, platform: str) -> None:
    pip = set(_pip_versions(dist, python, PIP_PLATFORMS[platform]))
    listed = {r for r, pys in table.wheel_table()[dist][platform].items() if python in pys}
    assert pip, "pip listed nothing: is the registry reachable?"
    # releases published after the table was generated are pip's only
    newest = max(Version(r) for rows in table.wheel_table()[dist].values() for r in rows)
    assert listed == {v for v in pip if Version(v) <= newest}


@pytest.mark.machine  # the registry
def test_a_real_pip_refusal_is_read_from_pips_own_list(tmp_path: Path) -> None:
    # pip, told it runs Python 3.10 on Linux, refuses torch 1.9.1 and lists what 3.10 can have
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--only-binary=:all:",
                          "--python-version", "3.10", "--platform", "manylinux2014_x86_64",
                          "--target", str(tmp_path / "t"), "--disable-pip-version-check", "torch==1.9.1"],
                         capture_output=True, text=True, env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    assert out.returncode != 0 and "No matching distribution found for torch==1.9.1" in out.stderr
    report = diagnose_text(out.stderr, words=False)
    assert report.shown[0].slug == "unsupported-python"
    assert any("fits Python 3.10" in v for k, v in report.shown[0].evidence if k == "wheels")


# ---------------------------------------------------------------- which Python runs


def test_the_python_a_text_names_agrees_with_the_threads() -> None:
    """On the corpus cases whose thread confirmed the Python, the text's Python (when it names
    one) is that Python: the floor of what this module measured (852 of 854)."""
    agree = disagree = 0
    for case in load_corpus(CORPUS, ("train",)):
        confirmed = str(dict(case.facts).get("python", ""))
        said = python_of(case.text)
        if not confirmed or said is None:
            continue
        if ".".join(confirmed.split(".")[:2]) == said:
            agree += 1
        else:
            disagree += 1
    assert agree >= 750
    assert disagree <= agree // 100


@pytest.mark.parametrize("text, python", [
    ("I use python 3.10 btw", "3.10"),
    ("File \"/home/u/venv/lib/python3.8/site-packages/torch/__init__.py\"", "3.8"),
    ("C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python311\\Scripts\\pip.exe", "3.11"),
    ("$ python -V\nPython 3.12.3\n$ pip install torch==2.4.1", "3.12"),
    ("Using Python 3.11.13 environment at: /home/u/envs/vllm", "3.11"),
    ("- OS: Windows 10\n- Python version: 3.9.7", "3.9"),
    # two Pythons: the text does not say which runs
    ("We recommend Python 3.10.9 ... but you have 3.11.1", None),
    # pip's own line names a package's version, not the interpreter's
    ("ERROR: Ignored the following versions that require a different python version: 3.3 Requires-Python >=3.10",
     None),
    ("no Python named here", None),
])
def test_the_python_is_read_only_when_the_text_names_one(text: str, python: Optional[str]) -> None:
    assert python_of(text) == python


def test_pips_list_names_the_interpreter_whatever_the_user_believes() -> None:
    # trailofbits/anamorpher#5: "I made sure I was on python 3.11", and pip lists torch 2.6.0 on
    # only: the releases with a Windows wheel for 3.13 (2.5.1 has none)
    listed = frozenset({"2.6.0", "2.7.0", "2.7.1", "2.8.0"})
    assert {py for py, _p in interpreters("torch", listed, ["windows-x86_64"])} == {"3.13"}
    text = ("ERROR: Could not find a version that satisfies the requirement torch==2.1.0 "
            "(from versions: 2.6.0, 2.7.0, 2.7.1, 2.8.0)\nERROR: No matching distribution found for torch==2.1.0\n"
            "I made sure I was on python 3.11")
    reasons = _reasons(text, facts_from_mapping({"os": "windows"}))
    assert reasons and "fits Python 3.13" in reasons[0]


def test_a_list_from_another_index_names_no_interpreter() -> None:
    # the +cu118 index holds 2.0.0 on only: older releases missing from the list means this is not
    # PyPI's list, and no Python is read from it
    listed = frozenset({"2.0.0", "2.0.1", "2.1.0"})
    assert interpreters("torch", listed, ["linux-x86_64"]) == []


def test_the_machines_python_is_a_fact_the_texts_python_comes_first() -> None:
    snap = {"interpreter": {"version_info": [3, 10, 4, "final", 0], "bits": 64}, "host": {"os": "linux"}}
    assert facts_from_snapshot(snap).python == "3.10"
    assert facts_from_snapshot({"interpreter": {"version_info": "odd"}}).python is None
    assert _table_hits(FAILED_191, facts_from_mapping({"os": "linux", "python": "3.10.4"})) == ["unsupported-python"]
    # explain runs in dldoctor's own interpreter (a pipx venv): the pasted pip's Python wins
    said = "$ python -V\nPython 3.8.10\n" + FAILED_191
    assert _table_hits(said, facts_from_mapping({"os": "linux", "python": "3.11"})) == []


# ---------------------------------------------------------------- verdicts


def test_a_release_without_a_wheel_for_the_python_is_the_python() -> None:
    # pytorch/pytorch#66399: torch 1.9.1 on Python 3.10 (wheels for 3.6 to 3.9)
    text = FAILED_191 + "\nI use python 3.10 btw"
    report = diagnose_text(text, facts_from_mapping({"os": "linux"}), words=False)
    assert report.shown[0].slug == "unsupported-python"
    assert any("has wheels for Python 3.6, 3.7, 3.8, 3.9 on linux-x86_64" in v for _k, v in report.shown[0].evidence)


def test_a_release_with_a_wheel_for_the_python_adds_nothing() -> None:
    text = FAILED_191.replace("1.9.1", "2.1.2") + "\nPython 3.11.5"
    assert _table_hits(text, facts_from_mapping({"os": "linux"})) == []


@pytest.mark.parametrize("text", [
    # no upper bound: a later release may have added the Python
    "ERROR: No matching distribution found for torch>=1.2.0\npython 3.12",
    # a distribution the table does not know
    "ERROR: No matching distribution found for leftpad==1.0.0\npython 3.12",
    # a release the table does not know
    "ERROR: No matching distribution found for torch==0.4.1\npython 3.12",
    # torch's Windows wheels were on download.pytorch.org only before 1.7: PyPI's lack is no fact
    "ERROR: No matching distribution found for torch==1.4.0\nC:\\Python36\\Scripts\\pip.exe\nPython 3.6.8",
])
def test_what_the_table_cannot_decide_adds_nothing(text: str) -> None:
    assert _table_hits(text, facts_from_mapping({"os": "windows"})) == []


def test_a_dropped_platform_is_a_lead_and_32_bit_windows_is_its_own_cause() -> None:
    # pytorch/pytorch#137281: torch 2.4.1 on an Intel Mac (x86_64 wheels end with 2.2.2)
    mac = ("$ python -V\nPython 3.12.3\n$ pip install torch==2.4.1\n"
           "ERROR: No matching distribution found for torch==2.4.1\nmacOS on x86_64")
    assert verdict("torch", SpecifierSet("==2.4.1"), "3.12", "macos-x86_64") == "lacks-platform"
    assert _table_hits(mac, facts_from_mapping({"os": "macos"})) == ["unsupported-python"]
    win32 = "C:\\Python37-32\\Scripts>pip install torch==1.5.1\nERROR: No matching distribution found for torch==1.5.1"
    assert _table_hits(win32, facts_from_mapping({"os": "windows"})) == ["python-32bit"]


def test_a_macos_before_11_is_an_intel_mac() -> None:
    # tensorflow/tensorflow#22041: tensorflow 1.10.1 on "OSX 10.13.6" with Python 3.7; its Mac
    # wheels end at 3.6. Apple Silicon came with macOS 11, so only the x86_64 row decides; read as
    # "either Mac", the arm64 row (no wheel of that age) leaves the table unable to say
    text = ("venv/lib/python3.7/site-packages\nCollecting tensorflow==1.10.1\n"
            "No matching distribution found for tensorflow==1.10.1\nOS Platform and Distribution: OSX 10.13.6")
    assert _table_hits(text, facts_from_mapping({"os": "macos"})) == ["unsupported-python"]
    assert _table_hits(text.replace("OSX 10.13.6", "macOS"), facts_from_mapping({"os": "macos"})) == []
    # a minimum quoted is no machine, and Apple Silicon named wins over an old release's name
    assert platforms_of("PyTorch is supported on macOS 10.15 (Catalina) or above.", "macos", None) == (
        "macos-arm64", "macos-x86_64")
    assert platforms_of("MacBook Pro M1 Pro; macOS Sierra 10.12.6 in a VM", "macos", None) == ("macos-arm64",)
    assert platforms_of("macOS Sierra 10.12.6", "macos", None) == ("macos-x86_64",)


def test_a_linux_arm_board_is_read_by_the_same_table_as_the_release_tables() -> None:
    # one reading of "an ARM machine" for pins and releases (platform.text_machines)
    for text in ("Jetson Nano", "on a raspberry pi 4", "an Ampere Altra server", "Graviton3", "uname -m: aarch64"):
        assert platforms_of(text, "linux", None) == ("linux-aarch64",), text
    assert platforms_of("Ubuntu 22.04, x86_64", "linux", None) == ("linux-x86_64",)


def test_a_64_bit_windows_banner_is_no_32_bit_python() -> None:
    banner = "Python 3.11.5 (tags/v3.11.5:cce6ba9, Aug 24 2023) [MSC v.1936 64 bit (AMD64)] on win32\n"
    text = banner + "ERROR: No matching distribution found for torch==2.1.0"
    assert _table_hits(text, facts_from_mapping({"os": "windows"})) == []
    assert _table_hits(text.replace("64 bit (AMD64)", "32 bit (Intel)"), facts_from_mapping({"os": "windows"})) == [
        "python-32bit"]


def test_post_releases_pre_releases_and_source_distributions() -> None:
    # a post-release is its own release (xformers 0.0.29.post3 has Windows wheels, 0.0.29 none)
    text = "ERROR: No matching distribution found for xformers==0.0.29.post3\nPython 3.10.11"
    assert _table_hits(text, facts_from_mapping({"os": "windows"})) == []
    # a nightly's pin is not read: its failures are rarely the Python's
    assert pins_of("ERROR: No matching distribution found for torch==2.7.0.dev20250311+cu128") == []
    # a release with a source distribution is built by pip, not refused: no verdict
    sdist = "ERROR: No matching distribution found for xformers==0.0.20\nPython 3.12.1"
    assert _table_hits(sdist, facts_from_mapping({"os": "linux"})) == []


def test_an_unknown_platform_is_answered_only_when_every_platform_agrees() -> None:
    # Apple silicon has a wheel of torch 2.1.2 for Python 3.11, Intel Macs too: no verdict on a Mac
    text = "ERROR: No matching distribution found for torch==2.1.2+cu118\nPython 3.11.5, Mac"
    assert _table_hits(text, facts_from_mapping({"os": "macos"})) == []


def test_pins_are_read_a_bounded_number_of_times_and_their_lines_are_right() -> None:
    text = "".join(f"ERROR: No matching distribution found for torch==1.{i}.0\n" for i in range(5000))
    assert len(pins_of(text)) <= 2 * MAX_PINS
    two = "x\n" * 5 + FAILED_191.replace("1.9.1", "1.8.1") + "y\n" + FAILED_191 + "I use python 3.10 btw"
    got = {dict(h.subject)["release"]: h.line for _v, _p, h, _r in findings(two, facts_from_mapping({"os": "linux"}))}
    assert got == {"torch==1.8.1": 6, "torch==1.9.1": 9}


# ---------------------------------------------------------------- the table's schema


def test_the_table_loads_and_covers_the_frameworks() -> None:
    rows = table.wheel_table()
    for dist in ("torch", "tensorflow", "onnxruntime", "paddlepaddle", "jaxlib"):
        assert rows[dist]["linux-x86_64"], dist
    assert rows["torch"]["windows-x86_64"]["1.13.1"] == frozenset({"3.7", "3.8", "3.9", "3.10"})


@pytest.mark.parametrize("row, message", [
    ({"dist": "torch", "platform": "plan9", "pythons": ["3.10"], "releases": ["2.0.0"]}, "platform"),
    ({"dist": "torch", "platform": "linux-x86_64", "pythons": ["three"], "releases": ["2.0.0"]}, "pythons"),
    ({"dist": "torch", "platform": "linux-x86_64", "pythons": ["3.10"], "releases": ["not a version"]}, "version"),
    ({"dist": "torch", "platform": "linux-x86_64", "pythons": ["3.10"]}, "keys"),
])
def test_a_bad_row_is_refused_with_its_reason(row: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(DataError, match=message):
        table._validate(row, 0)


def test_the_builder_reads_wheel_tags_as_pip_does() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    try:
        from build_wheel_table import pythons_of  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    from packaging.tags import Tag

    assert pythons_of(Tag("cp38", "cp38", "win_amd64")) == {"3.8"}
    assert pythons_of(Tag("cp38", "cp38m", "win_amd64")) == set()  # torch 1.7.0's mis-tagged wheel
    assert pythons_of(Tag("cp37", "cp37m", "win_amd64")) == {"3.7"}
    assert "3.12" in pythons_of(Tag("cp38", "abi3", "manylinux2014_x86_64"))
    assert pythons_of(Tag("cp313", "cp313t", "win_amd64")) == set()  # free-threaded: another ABI


@pytest.mark.parametrize("content", [None, "{not json", "[1, 2]"])
def test_the_builder_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path: Path, content: Optional[str]) -> None:
    if content is not None:
        (tmp_path / "torch.json").write_text(content, encoding="utf-8")
    before = (Path(table.__file__).parent / "wheels.toml").read_bytes()
    done = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[2] / "tools" / "build_wheel_table.py"),
                           "--from", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("build_wheel_table.py: ") and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert (Path(table.__file__).parent / "wheels.toml").read_bytes() == before


def test_findings_name_the_release_and_python() -> None:
    got = list(findings(FAILED_191 + "\nI use python 3.10 btw", facts_from_mapping({"os": "linux"})))
    assert [(v, p) for v, p, _h, _r in got] == [("lacks-python", "linux-x86_64")]
    assert dict(got[0][2].subject) == {"release": "torch==1.9.1", "python": "3.10"}
