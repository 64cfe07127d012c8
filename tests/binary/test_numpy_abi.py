"""The NumPy C API an extension was built against, from its import_array() literals (the real
wheels of both kinds are judged in tests/checks/test_compat_envs.py)."""

from __future__ import annotations

import io

from dldoctor.binary import numpy_abi
from dldoctor.binary.numpy_abi import scan

V1 = b"\0numpy.core._multiarray_umath\0"
V2 = b"\0numpy._core._multiarray_umath\0"


def test_a_numpy1_build_names_only_numpy_core() -> None:
    assert scan(io.BytesIO(b"ELF" + b"x" * 100 + V1 + b"y" * 100)) == "1"


def test_a_numpy2_build_names_numpy_core_too_but_numpy__core_first() -> None:
    assert scan(io.BytesIO(V2 + b"z" * 10 + V1)) == "2"


def test_other_mentions_do_not_count() -> None:
    assert scan(io.BytesIO(b"\0numpy.core.multiarray._reconstruct\0 numpy.core._multiarray_umath")) is None
    assert scan(io.BytesIO(b"no numpy here")) is None


def test_a_literal_across_two_chunks_is_found(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(numpy_abi, "CHUNK", 16)
    for cut in range(1, len(V2)):
        data = b"a" * (64 - cut) + V2 + b"b" * 64
        assert scan(io.BytesIO(data)) == "2"


def test_a_file_larger_than_the_limit_is_not_judged() -> None:
    assert scan(io.BytesIO(V1 + b"x" * 1000), limit=100) is None
    assert scan(io.BytesIO(V1 + b"x" * 50), limit=100) == "1"
