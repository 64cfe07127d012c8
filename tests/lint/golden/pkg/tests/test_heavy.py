# ruff: noqa
# Good: test modules (the catalyst tests/ shape in the survey) are collected, not imported
# by users, so an optional torch used in one test is not a finding.
try:
    import torch
except ImportError:
    torch = None


def test_reduce():
    assert torch is None or torch.zeros(1).sum() == 0
