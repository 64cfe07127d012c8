"""``wheels -r FILE``: pip is handed the file and follows its includes, so what pip would wait
on or choke on is refused first, with one line: a FIFO named by ``-r`` inside the file (pip
waited on it for the 30-minute download timeout), a line megabytes long (pip took minutes).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _wheels_r(req: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "dldoctor", "wheels", "-r", str(req)], capture_output=True,
                          text=True, timeout=60, cwd=req.parent, env=dict(os.environ, PIP_CONFIG_FILE=os.devnull))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("spelling", ["-r {}", "-r{}", "--requirement={}", "-c {}", "  --constraint {}"])
def test_an_included_fifo_is_refused_before_pip_reads_it(tmp_path: Path, spelling: str) -> None:
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / "pins.txt")
    (tmp_path / "sub" / "base.txt").write_text("six\n" + spelling.format("pins.txt") + "\n")
    (tmp_path / "req.txt").write_text("# top\n-r sub/base.txt\n")
    assert _wheels_r(tmp_path / "req.txt") == "dldoctor: -r pins.txt: not a regular file (a FIFO)"


def test_a_line_megabytes_long_is_not_a_requirements_file(tmp_path: Path) -> None:
    req = tmp_path / "req.txt"
    req.write_text("six\n" + "x" * 3_000_000 + "\n")
    assert _wheels_r(req) == f"dldoctor: -r {req}: line 2 is 3,000,000 characters long; not a requirements file"
