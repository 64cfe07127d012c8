"""explain on the messages of the compatibility family, as this machine's pip and packages
print them (each seen here while building tests/checks/compat_envs.py's environments)."""

from __future__ import annotations

import pytest

from dldoctor.explainer import diagnose_text

SEEN_HERE = [
    # pip's resolver after `pip install tokenizers==0.19.1` over transformers 4.46.3
    ("transformers 4.46.3 requires tokenizers<0.21,>=0.20, but you have tokenizers 0.19.1 which is incompatible.",
     "requirement-conflict"),
    ("onnx 1.23.2 requires protobuf>=6.31.1, but you have protobuf 3.20.3 which is incompatible.",
     "requirement-conflict"),
    # pip check (the wording) and the resolver, for a satellite's pin on torch
    ("torchvision 0.20.0 has requirement torch==2.5.0, but you have torch 2.13.0.", "companion-mismatch"),
    ("torchaudio 2.5.0 requires torch==2.5.0, but you have torch 2.13.0 which is incompatible.",
     "companion-mismatch"),
    ("torch 2.13.0 requires sympy, which is not installed.", "requirement-conflict"),
    # the imports themselves
    ("RuntimeError: operator torchvision::nms does not exist", "companion-mismatch"),
    ("ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, "
     "got 88 from PyObject", "numpy-abi-mismatch"),
    ("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.4.6 as it may crash.",
     "numpy-abi-mismatch"),
    ("ImportError: numpy.core.multiarray failed to import", "numpy-abi-mismatch"),
    ("ImportError: tokenizers>=0.20,<0.21 is required for a normal functioning of this module, but found "
     "tokenizers==0.19.1.", "requirement-conflict"),
    ("ImportError: cannot import name 'runtime_version' from 'google.protobuf' (/v/site-packages/google/protobuf/"
     "__init__.py)", "requirement-conflict"),
    ("ModuleNotFoundError: No module named 'sympy'", "requirement-conflict"),
]


@pytest.mark.parametrize(("text", "cause"), SEEN_HERE)
def test_the_message_names_its_cause_first(text: str, cause: str) -> None:
    ranked = [c.slug for c in diagnose_text(text).shown]
    assert ranked[:1] == [cause], ranked
