"""Repair-tool names: the hash auditwheel / delvewheel put in a vendored library's name is the
original file's content, so one hashed name in two packages is one library (issue 12)."""

from __future__ import annotations

import pytest

from dldoctor.binary.vendored import repair_hash, same_vendored_library


@pytest.mark.parametrize(("name", "digest"), [
    ("/env/numpy.libs/libgfortran-040039e1.so.5.0.0", "040039e1"),
    ("/env/scikit_learn.libs/libgomp-a34b3233.so.1.0.0", "a34b3233"),
    ("C:\\env\\scipy.libs\\msvcp140-6a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d.dll", "6a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d"),
    ("/env/libgomp.so.1", None),
    ("/env/scipy/spatial/_qhull.cpython-311-x86_64-linux-gnu.so", None),
    ("/env/pkg/data-0123abcd.txt", None),
    ("/env/pkg/libfoo-cafe.so", None),  # too short for a repair hash
    # auditwheel splits at the first dot: libopenblasp-r0.3.15.so (opencv-python's .libs)
    ("/env/opencv_python.libs/libopenblasp-r0-59ffcd50.3.15.so", "59ffcd50"),
    ("/env/pkg/notes-0123abcd.3.txt", None),
    ("/env/pkg.libs/libglib-2-0123abcd.0.so.0", "0123abcd"),  # libglib-2.0.so.0
    ("/env/pkg/_foo-0123abcd.cpython-311-x86_64-linux-gnu.so", None),  # an extension module's tag
])
def test_repair_hash(name: str, digest: object) -> None:
    assert repair_hash(name) == digest


def test_one_hashed_name_is_one_library_and_other_names_are_not() -> None:
    assert same_vendored_library("/a/numpy.libs/libgfortran-040039e1.so.5.0.0",
                                 "/a/scipy.libs/libgfortran-040039e1.so.5.0.0")
    assert not same_vendored_library("/a/numpy.libs/libgfortran-040039e1.so.5.0.0",
                                     "/a/scipy.libs/libgfortran-99999999.so.5.0.0")
    assert not same_vendored_library("/a/libgfortran.so.5", "/b/libgfortran.so.5")  # no hash: content decides
