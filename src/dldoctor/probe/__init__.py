"""Probes: the doctor watches the patient from outside (DESIGN §8).

Each probe starts the target interpreter in a fresh subprocess (timeout, stdin closed, a
clean environment), imports modules there, and reports what happened and which native
libraries loaded from where. Frameworks are never imported in dldoctor's own process.
"""

from __future__ import annotations

from dldoctor.probe.api import DEFAULT_TIMEOUT, run_probes
from dldoctor.probe.findings import probe_findings
from dldoctor.probe.model import (
    ImportProbe,
    LoadedLibrary,
    OrderConflict,
    ProbeReport,
    SpawnCheck,
    TorchCuda,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "ImportProbe",
    "LoadedLibrary",
    "OrderConflict",
    "ProbeReport",
    "SpawnCheck",
    "TorchCuda",
    "probe_findings",
    "run_probes",
]
