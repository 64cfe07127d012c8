"""Real win_amd64 wheels, downloaded at test time into .cache/ (pinned: results are stated)."""

from __future__ import annotations

from pathlib import Path
from typing import Dict

import pytest

from ..builders import fetch

PINS = {
    "numpy": "numpy==2.4.6",
    "scipy": "scipy==1.17.1",
    "onnxruntime": "onnxruntime==1.31.1",
    "opencv": "opencv-python==5.0.0.93",
    "pyarrow": "pyarrow==17.0.0",
    "intel-openmp": "intel-openmp==2026.2.0",
    "torch": "torch==2.15.0",
    "paddle": "paddlepaddle==3.3.1",
}


@pytest.fixture(scope="session")
def wheels() -> Dict[str, Path]:
    return {key: fetch(spec) for key, spec in PINS.items()}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """dldoctor's own cache (headers, downloads) goes to a temp folder, never ~/.cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "xdg-cache"))
