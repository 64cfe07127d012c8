"""Install wheels virtually: a Windows venv tree plus the Snapshot it would produce.

The virtual machine is a stock Windows 10/11 x64 (the system profile), a python.org CPython
of ``python_version`` in ``C:\\PythonXY`` (python.exe, pythonXY.dll, python3.dll and the
vcruntime140 DLLs it ships), a venv in ``C:\\venv`` created from it, and the wheels laid out
as pip would. The Snapshot built from it is what ``dldoctor snapshot`` would record on that
machine (libraries with their real headers, frameworks from their real version files), so
every snapshot check judges it unchanged.

The Visual C++ Redistributable is not part of Windows: ``vc_redist`` says which version the
target machine has (None: not installed, which missing-vc-runtime reports).
"""

from __future__ import annotations

import ntpath
import os
import tempfile
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from dldoctor._version import __version__
from dldoctor.conditions.windows import SystemProfile, load_profile, load_vc_runtime, load_windows_dll_data
from dldoctor.snapshot.model import (
    VIRTUAL_INSTALLER,
    Distribution,
    Framework,
    Gpu,
    Host,
    Interpreter,
    Library,
    Snapshot,
    SystemDll,
    WindowsHost,
    from_jsonable,
)
from dldoctor.wheelset.extract import HeaderCache
from dldoctor.wheelset.tree import PYTHON, SYSTEM, VirtualFile, VirtualTree, stub
from dldoctor.wheelset.wheel import Layout, Wheel, read_text_member, read_wheel


@dataclass(frozen=True)
class VirtualInstall:
    layout: Layout
    profile: SystemProfile
    python_version: Tuple[int, int]
    vc_redist: Optional[str]
    wheels: Tuple[Wheel, ...]
    tree: VirtualTree


def parse_python_version(text: str) -> Tuple[int, int]:
    from dldoctor.errors import DldoctorError

    parts = text.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        raise DldoctorError(f"--python-version {text!r}: expected MAJOR.MINOR, e.g. 3.11")
    return int(parts[0]), int(parts[1])


def install(
    paths: Sequence[str],
    platform: str = "win_amd64",
    python_version: str = "3.11",
    vc_redist: Optional[str] = None,
    cache: Optional[HeaderCache] = None,
) -> VirtualInstall:
    """Lay ``paths`` out as pip would, with the system and interpreter files around them."""
    profile = load_profile(platform)
    major, minor = parse_python_version(python_version)
    layout = Layout(base_prefix=f"C:\\Python{major}{minor}")
    tree = VirtualTree()
    for name in sorted(profile.system32):
        path = ntpath.join(layout.system32, name)
        tree.add(VirtualFile(path, SYSTEM, stub(path)))
    # The loader simulation assumes the redistributable is there (missing-vc-runtime judges
    # whether it is), so that one missing runtime does not hide every other finding.
    for name in load_vc_runtime().dlls:
        path = ntpath.join(layout.system32, name)
        tree.add(VirtualFile(path, SYSTEM, stub(path, vc_redist)))
    for name in ("python.exe", f"python{major}{minor}.dll", "python3.dll", *sorted(load_vc_runtime().python_app_dir)):
        path = ntpath.join(layout.base_prefix, name)
        tree.add(VirtualFile(path, PYTHON, stub(path)))
    cache = cache or HeaderCache()
    wheels = []
    for p in paths:
        wheel = read_wheel(p, layout)
        wheels.append(wheel)
        natives = [m for m in wheel.members if m.native]
        headers = cache.read(p, [m.name for m in natives])
        for m in natives:
            info, error = headers[m.name]
            if info is not None:
                info = info.__class__(**{**info.__dict__, "path": m.path})
            tree.add(VirtualFile(m.path, wheel.name, info, error, (m.size, m.crc)))
    return VirtualInstall(layout, profile, (major, minor), vc_redist, tuple(wheels), tree)


def _frameworks(vi: VirtualInstall, errors: List[str]) -> List[Dict[str, object]]:
    """The collector's own framework reader, run over the wheels' real version files."""
    from dldoctor.conditions.frameworks import framework_table
    from dldoctor.snapshot import collector

    table = framework_table()
    wanted = {f for spec in table for f in spec["files"]}
    with tempfile.TemporaryDirectory(prefix="dldoctor-") as tmp:
        dists = []
        for w in vi.wheels:
            for m in w.members:
                rel = ntpath.relpath(m.path, vi.layout.site_packages).replace("\\", "/")
                if rel in wanted:
                    text = read_text_member(w.file, m.name)
                    if text is not None:
                        target = os.path.join(tmp, *rel.split("/"))
                        os.makedirs(os.path.dirname(target), exist_ok=True)
                        with open(target, "w", encoding="utf-8") as fh:
                            fh.write(text)
            dists.append({"name": w.name, "version": w.version, "location": tmp})
        facts: List[Dict[str, object]] = collector.frameworks(dists, table, errors)  # type: ignore[no-untyped-call]
    for fact in facts:
        if fact.get("file"):
            rel = os.path.relpath(str(fact["file"]), tmp).replace(os.sep, "\\")
            fact["file"] = ntpath.join(vi.layout.site_packages, rel)
        fact["values"] = {k: v for k, v in dict(fact["values"]).items()}  # type: ignore[call-overload]
    return facts


def snapshot_of(vi: VirtualInstall) -> Snapshot:
    """The Snapshot ``dldoctor snapshot`` would record on the virtual machine."""
    lay = vi.layout
    errors: List[str] = []
    major, minor = vi.python_version
    dists = []
    libraries = []
    for w in vi.wheels:
        natives = [m for m in w.members if m.native]
        dists.append(Distribution(
            name=w.name, version=w.version, location=lay.site_packages, metadata_dir=w.metadata_dir,
            installer=VIRTUAL_INSTALLER, requires=w.requires, top_level=w.top_level, tags=w.tags,
            native_libs=tuple(ntpath.relpath(m.path, lay.site_packages) for m in natives),
        ))
        for m in natives:
            file = vi.tree.get(m.path)
            info = file.info.to_dict() if file and file.info else None
            libraries.append(Library(path=m.path, dist=w.name, info=info, error=file.error if file else None))
    vc = load_vc_runtime()
    runtime = [SystemDll(name=n, path=ntpath.join(lay.base_prefix, n), machine="x86_64")
               for n in sorted(vc.python_app_dir)]
    if vi.vc_redist:
        runtime += [SystemDll(name=n, path=ntpath.join(lay.system32, n), file_version=vi.vc_redist, machine="x86_64")
                    for n in vc.dlls]
    frameworks = tuple(from_jsonable(Framework, f) for f in _frameworks(vi, errors))
    return Snapshot(
        dldoctor_version=__version__,
        host=Host(os="windows", os_release="10", machine="AMD64", gpu=Gpu(source="virtual install: no GPU")),
        interpreter=Interpreter(
            executable=ntpath.join(lay.prefix, "Scripts", "python.exe"),
            version=f"{major}.{minor}.0",
            version_info=(major, minor, 0),
            implementation="cpython",
            bits=64,
            prefix=lay.prefix,
            base_prefix=lay.base_prefix,
            env_kind="venv",
            ext_suffix=f".cp{major}{minor}-win_amd64.pyd",
            platform_tag=vi.profile.platform,
            sys_path=(ntpath.join(lay.base_prefix, "Lib"), lay.site_packages),
            cwd=lay.prefix,
        ),
        distributions=tuple(dists),
        frameworks=frameworks,
        libraries=tuple(libraries),
        errors=tuple(errors),
        windows=WindowsHost(
            system32=lay.system32,
            vc_runtime=tuple(runtime),
            known_dlls=tuple(sorted(load_windows_dll_data().known_dlls)),
        ),
    )
