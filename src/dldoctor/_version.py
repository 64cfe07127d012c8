"""dldoctor's version: one place, read by setuptools at build time, by ``--version`` without
importing anything else of dldoctor (start-up stays cheap), and by every layer without
importing the package face."""

__version__ = "0.1.0"
