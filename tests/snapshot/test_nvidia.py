"""GPU facts: parsers on captured real nvidia-smi outputs and the driver seam.

No GPU exists here: the parsers run on outputs posted in public issues (each fixture cites
its URL), the no-driver path runs for real, and a recorded source stands in for a driver
behind the one narrow seam (GpuSource).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

import pytest

from dldoctor.snapshot.model import Gpu, GpuDevice
from dldoctor.snapshot.nvidia import (
    QUERY,
    QUERY_OLD,
    SystemGpuSource,
    parse_smi_csv,
    parse_smi_header,
    query_driver,
)

DATA = Path(__file__).parents[1] / "data" / "probe" / "nvidia-smi"


def _fixture(name: str) -> Tuple[Dict[str, str], str]:
    head, body = (DATA / name).read_text().split("---\n", 1)
    meta = {}
    for line in head.splitlines():
        if line.startswith("# ") and ":" in line:
            key, value = line[2:].split(":", 1)
            meta[key.strip()] = value.strip()
    assert meta["source"].startswith("https://"), name
    return meta, body


def _expect(meta: Dict[str, str]) -> Dict[str, str]:
    return dict(re.findall(r"(\w+)=(.*?)(?= \w+=|$)", meta["expect"]))


@pytest.mark.parametrize("name", [*sorted(p.name for p in DATA.glob("header-*.txt")),
                                  "failed-no-driver.txt"])
def test_parse_smi_header_on_real_outputs(name):
    meta, body = _fixture(name)
    want = _expect(meta)
    driver, cuda = parse_smi_header(body)
    assert str(driver) == want["driver"]
    assert str(cuda) == want["cuda"]


@pytest.mark.parametrize("name", ["query-570.86.15.csv", "query-invalid-field.txt"])
def test_parse_smi_csv_on_real_outputs(name):
    meta, body = _fixture(name)
    want = _expect(meta)
    driver, devices = parse_smi_csv(body)
    assert str(driver) == want["driver"]
    got = ";".join(f"{d.index}:{d.name}:{'.'.join(map(str, d.capability or ()))}"
                   for d in devices)
    assert got == want.get("devices", "")


def test_parse_smi_csv_units_and_missing_values():
    text = ("index, name, driver_version, memory.total [MiB], compute_cap\n"
            "0, NVIDIA GeForce RTX 3090, 535.104.05, 24576 MiB, 8.6\n"
            "1, Tesla K80, 535.104.05, [N/A], [N/A]\n")
    driver, devices = parse_smi_csv(text)
    assert driver == "535.104.05"
    assert devices == (GpuDevice("NVIDIA GeForce RTX 3090", 24576, "8.6", 0),
                       GpuDevice("Tesla K80", None, None, 1))


def test_header_with_the_newer_cuda_umd_label():
    line = "| NVIDIA-SMI 610.47   Driver Version: 610.47   CUDA UMD Version: 13.3 |"
    assert parse_smi_header(line) == ("610.47", "13.3")


class Recorded:
    """A driver that answers from captured outputs (the one seam that may be faked)."""

    def __init__(self, answers: Dict[str, Tuple[int, str]], nvml: Optional[Gpu] = None):
        self.answers, self._nvml, self.calls = answers, nvml, []  # type: ignore[var-annotated]

    def nvml(self) -> Optional[Gpu]:
        return self._nvml

    def nvidia_smi(self, args: Sequence[str]) -> Optional[Tuple[int, str]]:
        key = " ".join(args)
        self.calls.append(key)
        return self.answers.get(key, (2, "unexpected call"))


def test_collect_falls_back_to_the_old_query_on_old_drivers():
    _, header = _fixture("header-450.57.txt")
    _, invalid = _fixture("query-invalid-field.txt")
    old = "index, name, driver_version, memory.total [MiB]\n0, TITAN Xp, 450.57, 12196 MiB\n"
    src = Recorded({"": (0, header),
                    f"--query-gpu={QUERY} --format=csv,noheader=false": (6, invalid),
                    f"--query-gpu={QUERY_OLD} --format=csv,noheader=false": (0, old)})
    info = query_driver(src)
    assert info == Gpu(True, "450.57", "11.0", (GpuDevice("TITAN Xp", 12196, None, 0),),
                           "nvidia-smi")
    assert len(src.calls) == 3


def test_collect_prefers_nvml():
    nvml = Gpu(True, "550.54.14", "12.4", (GpuDevice("H100", 81559, "9.0", 0),), "nvml")
    src = Recorded({}, nvml=nvml)
    assert query_driver(src) is nvml and src.calls == []


def test_collect_with_a_driver_that_does_not_answer():
    _, text = _fixture("failed-no-driver.txt")
    info = query_driver(Recorded({"": (9, text)}))
    assert not info.driver_present and "couldn't communicate" in info.error


def test_no_driver_on_this_machine_for_real():
    """This machine has no NVIDIA driver: the real seam says so, without raising."""
    assert shutil.which("nvidia-smi") is None
    info = query_driver(SystemGpuSource())
    assert info.driver_present is False
    assert info.error.startswith("no NVIDIA driver")
