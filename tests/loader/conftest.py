"""Fixtures for the loader tests: a Wine prefix and the built Wine scenarios (the torch
venv is the suite-wide one from tests/conftest.py).

Missing tools make these fixtures fail (not skip): CI installs them (see the report's apt list).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "data" / "wine"))
sys.path.insert(0, str(Path(__file__).parent))

from need_tool import need  # noqa: E402


@pytest.fixture(scope="session")
def wine_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, str]]:
    """An initialised, throw-away WINEPREFIX (~10 s once per session)."""
    need("wine")
    prefix = tmp_path_factory.mktemp("wineprefix")
    env = dict(os.environ, WINEPREFIX=str(prefix), WINEDEBUG="-all")
    subprocess.run(["wineboot", "-i"], env=env, check=True, capture_output=True, timeout=300)
    yield env
    subprocess.run(["wineserver", "-k"], env=env, capture_output=True, timeout=60)


@pytest.fixture(scope="session")
def wine_scenarios(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """All Windows scenario DLLs and loader.exe, built with mingw-w64."""
    import scenarios

    need(scenarios.CC64)
    need(scenarios.CC32)
    base = tmp_path_factory.mktemp("winescen")
    scenarios.build(base)
    return base
