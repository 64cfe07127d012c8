"""dldoctor's version: one place, read by setuptools at build time and by ``--version``
without importing anything else of dldoctor (start-up stays cheap)."""

__version__ = "0.1.0"
