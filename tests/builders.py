"""Shared builders for tests: synthetic snapshots, one way to run a check, real foreign wheels.

A synthetic snapshot is for what cannot exist on this machine (a Windows registry, an NVIDIA
driver, a CUDA build of torch); everything else is judged on real environments built by the
fixtures in ``conftest.py``. Typical use in a check's test::

    snap = snapshot(host__os="windows", frameworks=(framework("torch", cuda="12.4"),))
    assert messages(snap, "pagefile-too-small") == [...]
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Dict, List, Optional

from dldoctor.checks import run_checks
from dldoctor.conditions.frameworks import framework_table
from dldoctor.model import Finding
from dldoctor.snapshot.model import Distribution, Framework, Snapshot

from .conftest import ROOT, cache_lock, pip_download

FOREIGN_WHEELS = ROOT / ".cache" / "foreign-wheels"
PLAIN = {"PATH": os.environ["PATH"], "LD_LIBRARY_PATH": "", "PYTHONPATH": ""}  # a shell without loader overrides


def snapshot(base: Optional[Snapshot] = None, **changes: Any) -> Snapshot:
    """``base`` (default: an empty Linux snapshot) with ``changes`` applied.

    Keys are Snapshot fields; ``__`` reaches into a nested value, Django style:
    ``snapshot(host__os="windows", host__gpu=Gpu(True, "560.94"), windows__tdr_delay=8)``.
    A nested value that is None (``windows``) is created from its type's defaults first.
    """
    return _replace_deep(base if base is not None else Snapshot(), changes)  # type: ignore[no-any-return]


def _replace_deep(value: Any, changes: Dict[str, Any]) -> Any:
    direct: Dict[str, Any] = {}
    deeper: Dict[str, Dict[str, Any]] = {}
    for key, v in changes.items():
        field, _, rest = key.partition("__")
        if rest:
            deeper.setdefault(field, {})[rest] = v
        else:
            direct[field] = v
    types = {f.name: f.type for f in dataclasses.fields(value)}
    for field, inner in deeper.items():
        current = getattr(value, field)
        if current is None:
            current = _type_of(types[field])()
        direct[field] = _replace_deep(current, inner)
    return dataclasses.replace(value, **direct)


def _type_of(annotation: Any) -> Any:
    """The class named by a field annotation such as ``"Optional[WindowsHost]"``."""
    import dldoctor.snapshot.model as model

    name = str(annotation).replace("Optional[", "").rstrip("]")
    return getattr(model, name)


def distribution(name: str, version: str = "1.0", location: str = "/env/lib/python3.11/site-packages",
                 **fields: Any) -> Distribution:
    """An installed distribution as the collector records it (``fields``: any Distribution field)."""
    return Distribution(name=name, version=version, location=location, **fields)


def framework(name: str, version: str = "2.5.1", dist: str = "", cuda: Optional[str] = None,
              **values: Any) -> Framework:
    """A framework read from its version file (``values`` under frameworks.toml's keys); ``cuda``
    None is a CPU build."""
    key = next((row["cuda_key"] for row in framework_table() if row["name"] == name), "") or "cuda_version"
    return Framework(name=name, dist=dist or name, version=version, file=f"/env/{name}/version.py",
                     values={key: cuda, **values})


def findings(snap: Snapshot, slug: str) -> List[Finding]:
    """What the check registered for ``slug`` finds in ``snap`` (the one way tests run a check)."""
    return [f for r in run_checks(snap, select=[slug]) for f in r.findings]


def messages(snap: Snapshot, slug: str) -> List[str]:
    return [f.message for f in findings(snap, slug)]


def evidence(f: Finding, label: str) -> List[str]:
    return [e.value for e in f.evidence if e.label == label]


def fetch(spec: str, platform: str = "win_amd64") -> Path:
    """One real wheel of another platform for CPython 3.11, downloaded once into
    ``.cache/foreign-wheels``; a failed download fails the test."""
    name, version = spec.split("==")
    stem = f"{name.replace('-', '_')}-{version}-"
    folder = FOREIGN_WHEELS / platform
    with cache_lock(f"foreign-{platform}-{stem}"):
        hits = sorted(p for p in folder.glob("*.whl") if p.name.lower().startswith(stem.lower()))
        if not hits:
            pip_download(folder, "--platform", platform, "--python-version", "3.11", spec)
            hits = sorted(p for p in folder.glob("*.whl") if p.name.lower().startswith(stem.lower()))
    assert hits, f"pip downloaded no wheel for {spec}"
    return hits[0]


# -- the one faked seam: an NVIDIA driver (it cannot exist here) ---------------------------
# The shapes nvidia-smi prints (header of plain `nvidia-smi`; `--query-gpu=... --format=csv`),
# with an H100 and driver 550.54.15; real captured outputs from public issues are exercised
# by tests/snapshot/test_nvidia.py against the same parser.
SMI_HEADER = (
    "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n"
)
SMI_CSV = (
    "index, name, driver_version, memory.total [MiB], compute_cap\n"
    "0, NVIDIA H100 80GB HBM3, 550.54.15, 81559 MiB, 9.0\n"
)
PROC = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"


class FakeDriver:
    """A driver (it cannot exist here), behind snapshot.nvidia's GpuSource seam."""

    def nvml(self) -> None:
        return None

    def nvidia_smi(self, args):  # type: ignore[no-untyped-def]
        return (0, SMI_CSV if args else SMI_HEADER)


class NoDriver:
    def nvml(self) -> None:
        return None

    def nvidia_smi(self, args):  # type: ignore[no-untyped-def]
        return None
