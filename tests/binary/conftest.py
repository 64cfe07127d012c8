"""Fixtures for the binary-reader tests: real binaries, built or downloaded at test time.

Everything heavy is cached under ``.cache/`` at the repository root (gitignored)
and reused: the wheel corpus (tests/data/binary/fetch_corpus.py) and the suite-wide torch venv
(tests/conftest.py). Tiny binaries are compiled with
gcc and x86_64-w64-mingw32-gcc into a temporary folder per session.
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from typing import Dict

import pytest
from tests.conftest import cache_lock  # tests/binary is no package: the suite's root conftest by name

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache"
DATA = REPO / "tests" / "data" / "binary"


def _fetch_corpus_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fetch_corpus", DATA / "fetch_corpus.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def corpus() -> Dict[str, Path]:
    """group name -> folder of unpacked native files of real wheels (see fetch_corpus.GROUPS)."""
    with cache_lock("binary-corpus"):
        return _fetch_corpus_module().fetch_all(CACHE / "corpus")  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """Small real binaries with known contents, built by build_tiny.sh."""
    out = tmp_path_factory.mktemp("tiny")
    subprocess.run(["sh", str(DATA / "build_tiny.sh"), str(out)], check=True, capture_output=True)
    return {p.name: p for p in out.iterdir() if p.is_file()}
