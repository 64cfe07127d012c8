"""Rebuild src/dldoctor/conditions/profiles/windows-x64.json from its public sources.

Source of the System32 list: delvewheel's ``ignore_names_x64`` (MIT licence), which its
author built from the .dll/.drv files with exports in C:\\Windows\\System32 on the installation
discs of x64 Windows 7 SP1, 8, 8.1, 10 and 11 (the names present on all of them). Windows 10
added the Universal CRT and a few graphics DLLs that Windows 7 lacked; those are listed below
with the Microsoft page that says they are part of Windows 10.

Run: python tests/data/profiles/build_windows_profile.py   (needs pip and network or a mirror)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

DELVEWHEEL = "delvewheel==1.13.2"
OUT = Path(__file__).resolve().parents[3] / "src" / "dldoctor" / "conditions" / "profiles" / "windows-x64.json"

WINDOWS10_ADDITIONS = {
    "ucrtbase.dll": "https://learn.microsoft.com/en-us/cpp/windows/universal-crt-deployment "
    "(the Universal CRT is a component of Windows 10 and later)",
    "d3d12.dll": "https://learn.microsoft.com/en-us/windows/win32/direct3d12/directx-12-programming-guide "
    "(Direct3D 12 ships with Windows 10)",
    "dxcore.dll": "https://learn.microsoft.com/en-us/windows/win32/dxcore/dxcore (Windows 10 1803+)",
    "bcryptprimitives.dll": "present in System32 of Windows 8 and later",
    "kernel.appcore.dll": "present in System32 of Windows 8.1 and later",
}
DRIVER_DLLS = {
    "nvcuda.dll": "NVIDIA display driver (CUDA driver API); absent without an NVIDIA driver",
    "nvml.dll": "NVIDIA display driver (NVML); absent without an NVIDIA driver",
}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, DELVEWHEEL], check=True)
        wheel = next(Path(tmp).glob("delvewheel-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(tmp)
        sys.path.insert(0, tmp)
        from delvewheel import _dll_list  # type: ignore[import-not-found]

    names = sorted(n for n in _dll_list.ignore_names_x64 if not _dll_list.vc_redist.fullmatch(n))
    profile = {
        "schema": "dldoctor-system-profile/1",
        "platform": "win_amd64",
        "title": "Stock Windows 10/11 x64 (no Visual C++ Redistributable, no GPU driver)",
        "provenance": {
            "system32": (
                f"{DELVEWHEEL} _dll_list.ignore_names_x64: .dll/.drv files with exports found in "
                "C:\\Windows\\System32 on the installation discs of x64 Windows 7 SP1, 8, 8.1, 10 and 11; "
                "names of the Visual C++ runtimes (delvewheel's vc_redist pattern) removed"
            ),
            "windows10_additions": "Microsoft documentation, one URL per name in windows10_additions",
            "driver_dlls": "installed by the NVIDIA display driver into System32, not by Windows",
            "api_set_prefixes": "Microsoft 'Windows API sets': api-ms-win-* and ext-ms-* are virtual contracts",
        },
        "api_set_prefixes": ["api-ms-win-", "ext-ms-"],
        "system32": names,
        "windows10_additions": WINDOWS10_ADDITIONS,
        "driver_dlls": DRIVER_DLLS,
    }
    OUT.write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(names)} System32 names)")


if __name__ == "__main__":
    main()
