"""The loader tests' one helper that test modules import: a module of its own, since every test
folder has a ``conftest`` and ``from conftest import`` gets whichever one was imported first."""

from __future__ import annotations

import shutil

import pytest


def need(tool: str) -> str:
    """The path of ``tool``; a missing one fails (CI installs it), never skips."""
    path = shutil.which(tool)
    if path is None:
        pytest.fail(f"{tool} is not installed (CI must install it)")
    return path
