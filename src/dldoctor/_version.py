"""dldoctor's version, in a module of its own so that every layer can read it without
importing the package face (which loads the report and checks layers)."""

__version__ = "0.1.0"
