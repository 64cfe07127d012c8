"""``dldoctor deps LIB``: the resolved dependency tree of one library (DESIGN §7).

Each edge names the loader rule that found it (see ``dldoctor.loader.linux`` /
``windows`` / ``macos`` for the exact search orders); "not found" lists every folder tried;
for ``wrong-architecture`` and ``unreadable`` the JSON's ``shadowed`` holds the files found but
not loadable (for ``unreadable``, the last one is where the search stopped) and ``unreadable``
says why each could not be read.
Exit 0 when everything resolved, 1 when something would fail to load, 2 on bad input.
"""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import Dict, List, Mapping

from dldoctor.binary import BinaryFormatError, read_binary, sniff_format
from dldoctor.cli._common import emit
from dldoctor.errors import DldoctorError
from dldoctor.inputs import check_regular
from dldoctor.loader.graph import HostFileSystem, LoadGraph
from dldoctor.loader.linux import host_config, resolve_linux, split_search_path

# The macOS and Windows models (and json) are imported where used: `deps` on one Linux
# library should cost a few times `ldd`, not the start-up of every model (bench_startup.py).

DESCRIPTION = """\
Resolve a library's dependency tree under the rules of the loader that will load it
(glibc ld.so, the Windows loader with LoadLibraryExW flags, dyld), tagging each edge
with the rule that found it. Nothing is loaded; only headers are read.

--platform defaults to the platform of LIB's format (ELF: linux, PE: windows, Mach-O:
macos). --search-path adds folders after LD_LIBRARY_PATH (linux), after PATH (windows)
or after DYLD_LIBRARY_PATH (macos). --env sets the simulated process's variables; for
the host platform they start from this process's environment, otherwise empty.

exit status: 0 everything resolved, 1 something would fail to load, 2 bad input.
"""
FORMAT_PLATFORM = {"elf": "linux", "pe": "windows", "macho": "macos"}


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lib", metavar="LIB", help="the library (or executable) to resolve")
    parser.add_argument("--platform", choices=("linux", "windows", "macos"))
    parser.add_argument("--search-path", action="append", default=[], metavar="DIR")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    win = parser.add_argument_group("windows")
    win.add_argument("--app-dir", metavar="DIR", help="the executable's folder (python.exe's)")
    win.add_argument(
        "--dll-directory",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder added with os.add_dll_directory (repeatable)",
    )
    win.add_argument(
        "--load-flags",
        default=None,
        metavar="HEX",
        help="LoadLibraryExW flags; 0 = plain LoadLibraryW (default: 1100, "
        "how CPython >= 3.8 loads an extension module)",
    )
    win.add_argument(
        "--preloaded",
        action="append",
        default=[],
        metavar="DLL_PATH",
        help="a module already in the process (repeatable)",
    )
    win.add_argument(
        "--system-dir",
        metavar="DIR",
        help="the System32 folder to search (default: on Windows the host's)",
    )


def host_platform() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    return "macos" if sys.platform == "darwin" else "linux"


def parse_env(pairs: List[str], base: Mapping[str, str]) -> Dict[str, str]:
    env = dict(base)
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise DldoctorError(f"--env expects NAME=VALUE, got {pair!r}")
        env[name] = value
    return env


def compute(args: argparse.Namespace) -> LoadGraph:
    """Resolve LIB as the arguments describe (no printing)."""
    lib = os.path.abspath(args.lib)
    check_regular(lib, args.lib)  # a FIFO, device or folder: one line, not "not a binary"
    try:
        fmt = sniff_format(lib)
        info = read_binary(lib) if fmt else None
    except OSError as exc:
        raise DldoctorError(f"{args.lib}: {exc.strerror or exc}") from None
    except BinaryFormatError as exc:
        raise DldoctorError(f"{args.lib}: {exc}") from None
    if info is None:
        raise DldoctorError(f"{args.lib}: not an ELF, PE or Mach-O binary")
    platform = args.platform or FORMAT_PLATFORM[info.format]
    if FORMAT_PLATFORM[info.format] != platform:
        raise DldoctorError(f"{args.lib}: a {info.format} file cannot be loaded on {platform}")
    host = platform == host_platform()
    env = parse_env(args.env, os.environ if host else {})
    if platform == "linux":
        cfg = host_config(env, info.machine, info.bits)
        cfg = replace(cfg, ld_library_path=cfg.ld_library_path + tuple(args.search_path))
        return resolve_linux(lib, read_binary, HostFileSystem(), cfg)
    if platform == "macos":
        from dldoctor.loader.macos import MacConfig, resolve_macos

        mac = MacConfig(
            dyld_library_path=split_search_path(env.get("DYLD_LIBRARY_PATH", ""))
            + tuple(args.search_path),
            dyld_fallback_library_path=split_search_path(env["DYLD_FALLBACK_LIBRARY_PATH"])
            if "DYLD_FALLBACK_LIBRARY_PATH" in env
            else MacConfig().dyld_fallback_library_path,
        )
        return resolve_macos(lib, read_binary, HostFileSystem(), mac)
    return _windows(lib, info.machine, env, args, host)


def _windows(
    lib: str, machine: str, env: Mapping[str, str], args: argparse.Namespace, host: bool
) -> LoadGraph:
    from dldoctor.loader.windows import (
        CPYTHON_EXTENSION_FLAGS,
        WindowsConfig,
        WindowsProcess,
        parse_flags,
        split_windows_path,
    )

    sysroot = env.get("SystemRoot") if host else None
    system32 = args.system_dir or (os.path.join(sysroot, "System32") if sysroot else None)
    cfg = WindowsConfig(
        machine=machine,
        app_dir=args.app_dir,
        system32=system32,
        system=os.path.join(sysroot, "System") if sysroot else None,
        windows=sysroot,
        cwd=os.getcwd() if host else None,
        path=split_windows_path(env.get("PATH", "")) + tuple(args.search_path),
    )
    proc = WindowsProcess(read_binary, HostFileSystem(case_insensitive=not host), cfg)
    for folder in args.dll_directory:
        proc.add_dll_directory(os.path.abspath(folder))
    for pre in args.preloaded:
        if not os.path.isfile(pre):
            raise DldoctorError(f"--preloaded {pre}: no such file")
        proc.preload(os.path.abspath(pre))
    flags = CPYTHON_EXTENSION_FLAGS if args.load_flags is None else parse_flags(args.load_flags)
    return proc.load_library(lib, flags).graph


def run(args: argparse.Namespace) -> int:
    graph = compute(args)
    if args.format == "json":
        import json

        from dldoctor.render.json import deps_dict

        emit(json.dumps(deps_dict(graph), indent=2) + "\n")
    else:
        from dldoctor.render.text import render_deps

        emit(render_deps(graph) + "\n")
    return 1 if graph.error or graph.missing else 0
