"""Errors that end a command with one clear line and exit status 2 (bad usage or input)."""

from __future__ import annotations


class DldoctorError(Exception):
    """Bad usage or unreadable input: the CLI prints ``dldoctor: <message>`` and exits 2."""
