"""Stdlib-only, bounds-checked readers of ELF, PE and Mach-O headers (DESIGN §1.5)."""

from dldoctor.binary.info import (
    BinaryFormatError,
    BinaryInfo,
    Source,
    read_binary,
    read_source,
    sniff_format,
)

__all__ = ["BinaryFormatError", "BinaryInfo", "Source", "read_binary", "read_source", "sniff_format"]
