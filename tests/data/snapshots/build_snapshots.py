"""Rebuild the recorded Windows snapshots in this folder from real wheels.

Everything about the environment is real: the wheels (downloaded with pip for win_amd64 /
CPython 3.11), their file lists, the PE headers of every DLL / .pyd in them, and the
frameworks' version files, all turned into a Snapshot by dldoctor's virtual install. The
System32 VC++ runtime versions are real too: they are read from real msvcp140.dll copies
shipped inside wheels (pyarrow 17.0.0: 14.28.29334.0; numpy 2.4.6's numpy.libs: 14.40.33810.0).
The registry facts (adapters, GPU preference, paging file, TDR) cannot be downloaded; they
use the registry's real value formats with the values of the seed-000 laptop (Intel UHD +
GeForce GTX 1650, no per-app preference) and are stated in ``_provenance``.

Run: python tests/data/snapshots/build_snapshots.py   (downloads ~330 MB into .cache/)
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CACHE = ROOT / ".cache" / "snapshot-wheels"
WHEELS = ["torch==2.15.0", "pyarrow==17.0.0", "onnxruntime-gpu==1.31.1", "numpy==2.4.6"]
MSVCP = {  # wheel -> member: real msvcp140.dll copies whose version resources we record
    "pyarrow": "pyarrow/msvcp140.dll",
    "numpy": "numpy.libs/msvcp140-a4c2229bdc2a2a630acdc095b4d86008.dll",
}


def download() -> list:
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--platform",
                    "win_amd64", "--python-version", "3.11", "-q", "-d", str(CACHE), *WHEELS], check=True)
    return sorted(str(p) for p in CACHE.glob("*.whl") if any(p.name.startswith(w.split("==")[0].replace("-", "_") + "-")
                                                               for w in WHEELS))


def real_version(wheel: str, member: str) -> str:
    from dldoctor.binary import read_binary

    with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "msvcp140.dll"
        path.write_bytes(zf.read(member))
        version = read_binary(str(path)).file_version
    assert version, member
    return version


def main() -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from dldoctor.snapshot.model import CudaToolkit, DisplayAdapter, Gpu, GpuDevice, PagingFile, SystemDll
    from dldoctor.wheelset.install import install, snapshot_of

    wheels = [w for w in download() if not Path(w).name.startswith("numpy")]
    numpy = next(str(p) for p in CACHE.glob("numpy-*.whl"))
    pyarrow = next(w for w in wheels if Path(w).name.startswith("pyarrow"))
    old, new = real_version(pyarrow, MSVCP["pyarrow"]), real_version(numpy, MSVCP["numpy"])
    snap = snapshot_of(install(wheels, vc_redist=None))
    sys32 = "C:\\Windows\\System32"
    # A 14.28 redistributable (VS 2019 16.8) has these; vcruntime140_threads.dll came later.
    names = ("msvcp140.dll", "msvcp140_1.dll", "msvcp140_2.dll", "msvcp140_atomic_wait.dll", "vcruntime140.dll",
             "vcruntime140_1.dll", "concrt140.dll", "vcomp140.dll")
    vc = [*(SystemDll(n, f"{sys32}\\{n}", old, "x86_64") for n in names), *snap.windows.vc_runtime]
    windows = dataclasses.replace(
        snap.windows,
        vc_runtime=tuple(vc),
        adapters=(
            DisplayAdapter("Intel(R) UHD Graphics 630", "Intel Corporation", "31.0.101.2115",
                           "pci\\ven_8086&dev_3e9b"),
            DisplayAdapter("NVIDIA GeForce GTX 1650", "NVIDIA", "32.0.15.6094", "pci\\ven_10de&dev_1f91"),
        ),
        gpu_preferences={},
        paging_files=(PagingFile("C:\\pagefile.sys", 2048, 2048, False),),
        existing_page_files=("\\??\\C:\\pagefile.sys",),
        physical_memory_mib=16254,
        cuda_toolkits=(CudaToolkit("CUDA_PATH", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4", "12.4",
                                   ("cublas64_12.dll", "cudart64_12.dll")),
                       CudaToolkit("CUDA_PATH_V12_4", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4",
                                   "12.4", ("cublas64_12.dll", "cudart64_12.dll"))),
    )
    gpu = Gpu(True, "560.94", "12.6", (GpuDevice("NVIDIA GeForce GTX 1650", 4096, "7.5"),), "nvidia-smi")
    snap = dataclasses.replace(snap, windows=windows, host=dataclasses.replace(snap.host, gpu=gpu),
                               env={"CUDA_PATH": windows.cuda_toolkits[0].path})
    data = {"_provenance": {
        "wheels": [Path(w).name for w in wheels],
        "system32_msvcp140": f"{old}: version resource of pyarrow 17.0.0's pyarrow/msvcp140.dll",
        "healthy_msvcp140": f"{new}: version resource of numpy 2.4.6's numpy.libs/msvcp140-*.dll",
        "registry": "value formats of the real keys; values of the seed 000 laptop (see module docstring)",
    }, **snap.to_dict()}
    out = Path(__file__).with_name("win-seed000-laptop.json")
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
