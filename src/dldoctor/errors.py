"""Errors that end a command with one clear line and exit status 2 (bad usage or input).

Kept free of imports so that the CLI can catch them without loading what raises them.
"""

from __future__ import annotations


class DldoctorError(Exception):
    """Bad usage or unreadable input: the CLI prints ``dldoctor: <message>`` and exits 2."""


class DataError(ValueError):
    """A data file shipped with dldoctor does not follow its schema (a bug: exit 2, one line)."""
