"""The Snapshot: every fact checks may judge, as one plain JSON-serialisable value.

Snapshots are written by ``dldoctor snapshot`` on one machine and judged by ``dldoctor
check --snapshot`` on another (DESIGN §1.1), so they must round-trip exactly through JSON
and must tolerate files written by newer or older versions (unknown keys are ignored,
missing keys take their defaults).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from packaging.utils import canonicalize_name

from dldoctor.conditions.frameworks import build_cuda
from dldoctor.snapshot.codec import from_jsonable as from_jsonable  # re-exported: collect and wheelset build snapshots
from dldoctor.snapshot.codec import to_jsonable

SCHEMA_VERSION = 1


@dataclasses.dataclass(frozen=True)
class GpuDevice:
    """One NVIDIA device as the driver reports it (NVML or ``nvidia-smi``): the one device
    type of the snapshot, the probes and the checks."""

    name: str
    memory_mib: Optional[int] = None
    compute_capability: Optional[str] = None  # "8.6"; a string so snapshot files stay plain JSON
    index: int = 0

    @property
    def capability(self) -> Optional[Tuple[int, int]]:
        """``(8, 6)`` from ``"8.6"``; None when unknown or malformed."""
        parts = (self.compute_capability or "").split(".")
        if len(parts) == 2 and all(p.isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
        return None


@dataclasses.dataclass(frozen=True)
class Gpu:
    """NVIDIA driver facts. ``source`` says how they were learned (NVML, nvidia-smi, a file) or
    why none was found; ``error`` why the driver could not be asked ("skipped": not asked)."""

    driver_present: bool = False
    driver_version: Optional[str] = None
    cuda_driver_version: Optional[str] = None  # newest CUDA the driver supports ("12.4")
    devices: Tuple[GpuDevice, ...] = ()
    source: str = "not checked"
    error: str = ""


@dataclasses.dataclass(frozen=True)
class Host:
    os: str = ""
    os_release: str = ""
    os_version: str = ""
    machine: str = ""
    libc: str = ""
    home: str = ""
    gpu: Gpu = Gpu()
    # x86 instruction-set extensions the OS was asked about -> whether the CPU offers them
    # (Linux flag names: "avx", "sse4_2"); a flag it could not be asked about is absent, so
    # an empty mapping means unknown (another CPU family, an older snapshot), never "none".
    cpu_features: Dict[str, bool] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Interpreter:
    executable: str = ""
    version: str = ""
    version_info: Tuple[int, ...] = ()
    implementation: str = ""
    bits: int = 64
    prefix: str = ""
    base_prefix: str = ""
    env_kind: str = ""
    soabi: str = ""
    ext_suffix: str = ""
    platform_tag: str = ""
    abiflags: str = ""
    gil_disabled: bool = False
    sys_path: Tuple[str, ...] = ()
    cwd: str = ""
    user_site: Optional[str] = None
    stdlib_dirs: Tuple[str, ...] = ()
    markers: Dict[str, str] = dataclasses.field(default_factory=dict)  # PEP 508 marker environment


@dataclasses.dataclass(frozen=True)
class RecordCheck:
    """RECORD versus disk; counts are exact, ``examples`` lists the first few files."""

    files: int = 0
    missing: int = 0
    wrong_size: int = 0
    wrong_hash: int = 0
    examples: Tuple[str, ...] = ()
    hashes_checked: bool = False

    @property
    def problems(self) -> int:
        return self.missing + self.wrong_size + self.wrong_hash


@dataclasses.dataclass(frozen=True)
class FrameworkImport:
    """``import dist`` imports ``framework`` through ``chain`` ("pkg/mod.py:LINE" steps)."""

    framework: str
    chain: Tuple[str, ...]
    guarded: bool = False  # inside try: (an ImportError is caught, other failures are not)


#: ``Distribution.installer`` of a wheel in a virtual install (``dldoctor wheels``): a planned
#: install, where pip would still fetch from the index whatever the set leaves out.
VIRTUAL_INSTALLER = "dldoctor-virtual"


@dataclasses.dataclass(frozen=True)
class Distribution:
    """One installed distribution, as its metadata folder and RECORD describe it.

    ``name`` is spelled as its METADATA spells it (look distributions up with
    :meth:`Snapshot.distribution`, which canonicalises); ``location`` is the sys.path folder
    it is installed into; ``requires`` holds the raw ``Requires-Dist`` lines of METADATA
    (PEP 508 strings with their markers and extras, e.g. ``"numpy>=1.22; extra == 'x'"``);
    ``native_libs`` the RECORD entries that are native libraries or extension modules
    (``.so[.N]``, ``.dll``, ``.pyd``, ``.dylib``), relative to ``location`` with RECORD's
    forward slashes; ``kind`` is ``dist-info`` or ``egg-info``; ``problem`` says why its
    metadata could not be read ("" when it could); ``matching_files`` (only when one
    name is installed more than once) how many of its first RECORD files are on disk with
    their recorded hash: the copy whose files are really there.
    """

    name: str
    version: str
    location: str
    metadata_dir: str = ""
    kind: str = "dist-info"
    installer: str = ""
    requires: Tuple[str, ...] = ()
    top_level: Tuple[str, ...] = ()
    tags: Tuple[str, ...] = ()
    editable: bool = False
    record: Optional[RecordCheck] = None
    native_libs: Tuple[str, ...] = ()
    framework_imports: Tuple[FrameworkImport, ...] = ()
    problem: str = ""
    matching_files: Optional[int] = None  # only for duplicates: its RECORD files on disk with their hash


@dataclasses.dataclass(frozen=True)
class Framework:
    """An installed framework: its distribution and the build facts its version file states
    (``values``: the keys frameworks.toml lists, read as text from ``file``)."""

    name: str
    dist: str
    version: str
    file: Optional[str] = None
    values: Dict[str, Union[str, int, float, bool, None]] = dataclasses.field(default_factory=dict)

    @property
    def cuda(self) -> Optional[str]:
        """The CUDA version this build targets ("12.4"), None for a CPU build, "" when its
        files do not say (the one answer checks, reports and explain share)."""
        return build_cuda(self.name, self.values, self.file)


@dataclasses.dataclass(frozen=True)
class Shadow:
    module: str
    path: str
    dist: str
    installed_at: str
    in_cwd: bool = False


@dataclasses.dataclass(frozen=True)
class PathTool:
    path: str
    interpreter: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class SearchPathEntry:
    """One folder of the library search variable (PATH / LD_LIBRARY_PATH / DYLD_*)."""

    var: str
    index: int
    path: str
    exists: bool = False
    env_root: Optional[str] = None  # the Python environment the folder lies in, if any
    same_names: Tuple[str, ...] = ()  # native library names it shares with this environment
    libraries: int = 0


@dataclasses.dataclass(frozen=True)
class PythonPathEntry:
    """One folder of PYTHONPATH (``index`` in the variable): it goes before site-packages on
    sys.path, so what it holds wins. ``env_root``: the Python environment it lies in;
    ``abi_tags``: interpreter tags of the compiled modules in it (``cpython-39``, ``cp39``);
    ``checkout``: a source-checkout marker (setup.py, pyproject.toml, .git) in it or its parent."""

    path: str
    index: int = 0
    exists: bool = False
    env_root: Optional[str] = None
    abi_tags: Tuple[str, ...] = ()
    checkout: str = ""


@dataclasses.dataclass(frozen=True)
class Library:
    """One native library of the environment with its header facts (or why they failed)."""

    path: str
    dist: Optional[str] = None
    info: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    numpy_build: Optional[str] = None  # "1" / "2": the NumPy C API it was compiled against (binary.numpy_abi)


@dataclasses.dataclass(frozen=True)
class SystemDll:
    """One Visual C++ runtime DLL found on the host, with its version resource."""

    name: str
    path: str
    file_version: Optional[str] = None
    machine: Optional[str] = None
    error: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class DisplayAdapter:
    """One display adapter from the registry's display device class."""

    description: str
    provider: str = ""
    driver_version: str = ""
    device_id: str = ""  # MatchingDeviceId, e.g. pci\\ven_10de&dev_2520


@dataclasses.dataclass(frozen=True)
class PagingFile:
    """One line of Memory Management\\PagingFiles: sizes in MiB, 0/0 = system managed."""

    path: str
    initial_mib: int = 0
    maximum_mib: int = 0
    system_managed: bool = True


@dataclasses.dataclass(frozen=True)
class CudaToolkit:
    """A CUDA toolkit named by CUDA_PATH or CUDA_PATH_Vx_y, with the runtime DLLs in bin."""

    var: str
    path: str
    version: Optional[str] = None
    bin_dlls: Tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class WindowsHost:
    """Host facts only Windows has (registry, System32), gathered outside the target.

    ``None`` values mean "not set" (the OS default applies); ``errors`` says what could not
    be read, so an unreadable key is never mistaken for an unset one.
    """

    system32: str = ""
    vc_runtime: Tuple[SystemDll, ...] = ()
    known_dlls: Tuple[str, ...] = ()
    adapters: Tuple[DisplayAdapter, ...] = ()
    gpu_preferences: Dict[str, str] = dataclasses.field(default_factory=dict)
    paging_files: Tuple[PagingFile, ...] = ()
    existing_page_files: Tuple[str, ...] = ()
    physical_memory_mib: Optional[int] = None
    tdr_delay: Optional[int] = None
    tdr_level: Optional[int] = None
    cuda_toolkits: Tuple[CudaToolkit, ...] = ()
    errors: Tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class LoaderFacts:
    """What ld.so would see beyond the environment's own files, gathered once at collection
    so that native checks stay pure and can judge a snapshot taken on another machine.

    Only names the environment's libraries (transitively) need are recorded: the whole
    ld.so.cache would be thousands of entries the checks never ask about."""

    default_dirs: Tuple[str, ...] = ()
    lib: str = ""  # what $LIB expands to
    cache: Dict[str, str] = dataclasses.field(default_factory=dict)  # needed name -> cache path
    outside: Tuple[Library, ...] = ()  # files outside the environment a needed name can bind to
    preload: Tuple[Library, ...] = ()  # LD_PRELOAD's objects: loaded first, they answer their SONAME for all
    realpaths: Dict[str, str] = dataclasses.field(default_factory=dict)  # only where they differ
    sizes: Dict[str, int] = dataclasses.field(default_factory=dict)  # path -> bytes
    digests: Dict[str, str] = dataclasses.field(default_factory=dict)  # same-name copies only


@dataclasses.dataclass(frozen=True)
class Snapshot:
    schema_version: int = SCHEMA_VERSION
    dldoctor_version: str = ""
    created: str = ""
    host: Host = Host()
    interpreter: Interpreter = Interpreter()
    env: Dict[str, str] = dataclasses.field(default_factory=dict)
    distributions: Tuple[Distribution, ...] = ()
    frameworks: Tuple[Framework, ...] = ()
    shadows: Tuple[Shadow, ...] = ()
    path_tools: Dict[str, PathTool] = dataclasses.field(default_factory=dict)
    conda_packages: Tuple[str, ...] = ()
    conda_versions: Dict[str, str] = dataclasses.field(default_factory=dict)  # conda package -> version
    search_path: Tuple[SearchPathEntry, ...] = ()
    python_path: Tuple[PythonPathEntry, ...] = ()
    leftovers: Tuple[str, ...] = ()  # ``~name`` folders of interrupted pip runs, in site folders
    libraries: Tuple[Library, ...] = ()
    loader: Optional[LoaderFacts] = None  # Linux only; None in older or non-Linux snapshots
    errors: Tuple[str, ...] = ()
    windows: Optional[WindowsHost] = None

    def to_dict(self) -> Dict[str, Any]:
        return to_jsonable(self)  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Snapshot:
        if not isinstance(data, Mapping):
            raise ValueError("a snapshot is a JSON object")
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise ValueError(f"unsupported snapshot schema_version {version!r} (expected {SCHEMA_VERSION})")
        return from_jsonable(cls, data)

    def framework(self, name: str) -> Optional[Framework]:
        """The installed framework called ``name`` (torch, paddle, tensorflow, ...), if any."""
        return next((f for f in self.frameworks if f.name == name), None)

    def distribution(self, name: str) -> Optional[Distribution]:
        """The first installed distribution of ``name`` in sys.path order (the one imported),
        matched by PEP 503 normalised name: ``distribution("Torch_Vision")`` finds torchvision."""
        want = canonicalize_name(name)
        return next((d for d in self.distributions if canonicalize_name(d.name) == want), None)
