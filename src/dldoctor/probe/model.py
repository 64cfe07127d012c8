"""What the probes observed, as frozen, JSON-serialisable values.

A crash, a hang and an exception are all *results* here (``status``), never exceptions in
dldoctor: the doctor reports what happened to the patient.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Optional, Tuple

from dldoctor.snapshot.model import Gpu

OK, ERROR, CRASH, TIMEOUT, BROKEN = "ok", "error", "crash", "timeout", "broken"
KILLED_PARENT = "killed-parent"  # the import killed (or signalled) the process that ran it


@dataclass(frozen=True)
class LoadedLibrary:
    """One native library mapped into the child, with the distribution that installed it."""

    path: str
    owner: Optional[str] = None  # None: system, the interpreter, or unknown
    baseline: bool = False  # already loaded before the first import (the interpreter's own)

    @property
    def name(self) -> str:
        return self.path.replace("\\", "/").rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ModuleFacts:
    """What an imported module says about itself (version, CUDA/HIP build)."""

    name: str
    file: Optional[str] = None
    version: Optional[str] = None
    cuda: Optional[str] = None
    hip: Optional[str] = None


@dataclass(frozen=True)
class ImportProbe:
    """One child that imported ``modules`` in order."""

    modules: Tuple[str, ...]
    status: str  # ok | error | crash | timeout | broken | killed-parent
    failed_module: Optional[str] = None  # the module being imported when it went wrong
    exc_type: str = ""
    message: str = ""
    traceback: str = ""
    exit: str = ""  # "SIGABRT (signal 6)", "0xC0000005 STATUS_ACCESS_VIOLATION", "exit 3"
    returncode: Optional[int] = None
    stderr_tail: str = ""
    loaded: Tuple[LoadedLibrary, ...] = ()
    facts: Tuple[ModuleFacts, ...] = ()
    seconds: float = 0.0
    frameworks: Tuple[str, ...] = ()  # watched frameworks in sys.modules (or the traceback)

    @property
    def ok(self) -> bool:
        return self.status == OK

    @property
    def label(self) -> str:
        return ",".join(self.modules)

    def summary(self) -> str:
        """One line: what went wrong, for messages and evidence."""
        if self.status == OK:
            return "imported"
        if self.status == ERROR:
            first = self.message.strip().splitlines()[0] if self.message.strip() else ""
            return f"{self.exc_type.rsplit('.', 1)[-1]}: {first}"[:300]
        if self.status == CRASH:
            return f"crashed ({self.exit})"
        if self.status == TIMEOUT:
            return f"hung (killed after {self.seconds:.1f} s)"
        if self.status == KILLED_PARENT:
            return f"killed its parent process ({self.exit}); the probe was stopped"
        return f"probe failed: {self.message}"[:300]


@dataclass(frozen=True)
class OrderConflict:
    """A pair that imports one way and fails the other."""

    working: Tuple[str, str]
    failing: ImportProbe
    culprit: Optional[LoadedLibrary] = None  # the copy that won in the failing order
    rival: Optional[LoadedLibrary] = None  # the copy the working order loaded instead


@dataclass(frozen=True)
class TorchDevice:
    index: int
    name: str = ""
    capability: Optional[Tuple[int, int]] = None
    kernel: str = ""  # "ok" or the error text of the one small kernel


@dataclass(frozen=True)
class TorchCuda:
    """torch's own view of CUDA, from a child that imported it."""

    version: str = ""
    cuda: Optional[str] = None
    hip: Optional[str] = None
    is_available: bool = False
    device_count: int = 0
    arch_list: Tuple[str, ...] = ()
    devices: Tuple[TorchDevice, ...] = ()
    error: str = ""  # the child itself failed (import error, crash, hang)


@dataclass(frozen=True)
class OrtProvider:
    """One ONNX Runtime execution provider, asked for in a real session: ``loaded`` when the
    session uses it; ``log`` what ONNX Runtime printed when it fell back (only to stderr)."""

    name: str
    loaded: bool
    version: str = ""
    log: str = ""


@dataclass(frozen=True)
class SpawnCheck:
    what: str  # pool | dataloader
    ok: bool
    error: str = ""
    traceback: str = ""


@dataclass(frozen=True)
class ProbeReport:
    """Everything the probes saw in one target interpreter."""

    python: str
    platform: str  # linux | windows | macos (of the target)
    imports: Tuple[ImportProbe, ...] = ()
    pairs: Tuple[ImportProbe, ...] = ()
    conflicts: Tuple[OrderConflict, ...] = ()
    gpu: Gpu = field(default_factory=lambda: Gpu(False, source="none"))  # the driver, from outside
    torch_cuda: Optional[TorchCuda] = None
    spawn: Tuple[SpawnCheck, ...] = ()
    owners_natives: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()  # dist -> its native libs
    cxx_levels: Tuple[Tuple[str, Optional[int]], ...] = ()  # libstdc++ copy -> GLIBCXX_3.4.N
    errors: Tuple[str, ...] = ()
    ort: Tuple[OrtProvider, ...] = ()  # ONNX Runtime's non-CPU providers, each tried in a session
    preload: Tuple[str, ...] = ()  # LD_PRELOAD of the children: loaded before every DT_NEEDED

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)
