"""The Snapshot's answers: distributions by normalised name, and which CUDA a build targets
(one property, from frameworks.toml, that checks, reports and explain share)."""

from __future__ import annotations

import pytest

from dldoctor.snapshot.model import Framework

from ..builders import distribution, framework, snapshot


def test_distribution_is_found_by_its_normalised_name() -> None:
    snap = snapshot(distributions=(distribution("Torch_Vision", "0.20.1"), distribution("torchvision", "0.19.0")))
    found = snap.distribution("torch-vision")
    assert found is not None and found.version == "0.20.1"  # the first one, as sys.path order imports it
    assert snap.distribution("torchaudio") is None


@pytest.mark.parametrize(("fw", "cuda"), [
    (framework("torch", cuda="12.4"), "12.4"),
    (framework("torch", cuda=None), None),
    (framework("torch", cuda="None"), None),
    (framework("paddle", cuda="False"), None),
    (framework("tensorflow", cuda="12.3", is_cuda_build=False), None),
    (framework("tensorflow", cuda="12.3", is_cuda_build=True), "12.3"),
    (framework("onnxruntime", cuda="12.2", package_name="onnxruntime"), None),
    (framework("onnxruntime", cuda="12.2", package_name="onnxruntime-gpu"), "12.2"),
    (framework("jax"), ""),  # its version file does not say
    (Framework("torch", "torch", "2.5.1"), ""),  # no version file read
])
def test_which_cuda_a_build_targets(fw: Framework, cuda: object) -> None:
    assert fw.cuda == cuda
