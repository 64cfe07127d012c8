"""Output meets the stream's encoding: ASCII marks where ✓/✗ cannot be written, escapes for
any other character, never a UnicodeEncodeError.

``PYTHONIOENCODING=ascii`` is a minimal shell; cp1252 is what a Windows user gets when
redirecting to a file. Every command's text output is run for real under both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dldoctor.cli._common import encodable

ENCODINGS = ("ascii", "cp1252")
LOG = ("Traceback (most recent call last):\n"
       '  File "D:\\项目\\训练.py", line 1, in <module>\n'
       "    import torch\n"
       "OSError: [WinError 126] 找不到指定的模块。 Error loading "
       '"D:\\项目\\.venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n')


def _run(encoding: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "dldoctor", *args], capture_output=True, env=env, cwd=cwd,
                          timeout=600, encoding=encoding, errors="strict")  # strict: a bad byte fails here


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("encoding")
    (work / "error.log").write_text(LOG, encoding="utf-8")
    (work / "bad_ü.py").write_text("from multiprocessing import Pool\npool = Pool(2)  # ✗ ünïcode\n",
                                   encoding="utf-8")
    return work


COMMANDS: Dict[str, Tuple[Tuple[str, ...], Tuple[int, ...]]] = {
    "check": (("check", "--no-probe"), (0, 1)),
    "check-probe": (("check",), (0, 1)),
    "check-markdown": (("check", "--no-probe", "--format", "markdown"), (0, 1)),
    "snapshot": (("snapshot",), (0,)),
    "explain": (("explain", "error.log", "--no-env"), (0,)),
    "deps": (("deps", sys.executable), (0, 1)),
    "probe": (("probe", "json", "no_such_module_ü", "--no-gpu"), (1,)),
    "lint": (("lint", "bad_ü.py"), (1,)),
    "lint-sarif": (("lint", "bad_ü.py", "--format", "sarif"), (1,)),
    "rules": (("rules",), (0,)),
    "rules-page": (("rules", "missing-vc-runtime"), (0,)),
}


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_writes_what_the_stream_can_carry(work: Path, encoding: str, command: str) -> None:
    args, codes = COMMANDS[command]
    done = _run(encoding, *args, cwd=work)
    assert done.returncode in codes, done.stderr
    assert "Traceback" not in done.stderr and "UnicodeEncodeError" not in done.stderr
    assert done.stdout.strip()
    assert "✓" not in done.stdout and "✗" not in done.stdout


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_marks_fall_back_to_ascii(work: Path, encoding: str) -> None:
    text = _run(encoding, "check", "--no-probe", cwd=work).stdout
    assert "[ok] " in text and "checks passed" in text
    md = _run(encoding, "check", "--no-probe", "--format", "markdown", cwd=work).stdout
    assert "(ok)" in md or "(error)" in md or "(warning)" in md
    tree = _run(encoding, "deps", sys.executable, cwd=work).stdout
    assert "|-- " in tree or "`-- " in tree


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("args", [("explain", "error.log", "--no-env", "--format", "json"),
                                  ("lint", "bad_ü.py", "--format", "json"), ("snapshot",)])
def test_json_stays_valid_and_means_the_same(work: Path, encoding: str, args: Tuple[str, ...]) -> None:
    """Characters the stream lacks become \\uXXXX escapes, which JSON reads back as themselves."""
    narrow = json.loads(_run(encoding, *args, cwd=work).stdout)
    wide = json.loads(_run("utf-8", *args, cwd=work).stdout)
    for doc in (narrow, wide):
        doc.pop("created", None)
    assert narrow == wide


def test_utf8_output_is_unchanged(work: Path) -> None:
    assert "[✓] " in _run("utf-8", "check", "--no-probe", cwd=work).stdout


@given(st.text(), st.sampled_from(["ascii", "cp1252", "latin-1", "utf-8", "cp437", "shift_jis"]))
def test_any_text_is_encodable_by_any_stream(text: str, encoding: str) -> None:
    out = encodable(text, encoding)
    out.encode(encoding)  # never raises
    if encoding == "utf-8" and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert out == text
