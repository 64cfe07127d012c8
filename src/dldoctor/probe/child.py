"""The script a probe runs inside the TARGET interpreter (stdlib only, Python 3.8+).

It is passed to the target with ``-c`` (its source text), so it must not import dldoctor
and must not assume anything about the target but a working stdlib. It never prints the
result to stdout: imported modules may print anything there. Instead it appends one JSON
object per line to a result file named on the command line, flushing each line, so that the
parent still learns how far the child got when an import crashes or hangs.

Command line: ``-c SOURCE MODE RESULT_FILE PAYLOAD_JSON``.
Modes: ``import`` (import a sequence of modules, then list the loaded native libraries),
``ort`` (which ONNX Runtime execution providers a session really loads),
``find`` (which of some top-level names are importable, without importing them), ``gpu``
(torch's view of CUDA, one kernel per device) and ``spawn`` (a two-worker pool and a
two-worker DataLoader, started with ``spawn``).
"""

import importlib
import json
import os
import re
import sys
import time
import traceback
from typing import IO, Any, Callable, Dict, List, Set, Tuple

MAX_TEXT = 8000  # keep messages and tracebacks bounded; the parent shows a tail anyway


def _emit(fh: IO[str], event: str, **data: Any) -> None:
    data["event"] = event
    fh.write(json.dumps(data, default=repr) + "\n")
    fh.flush()


def _clip(text: object) -> str:
    text = str(text)
    return text if len(text) <= MAX_TEXT else "..." + text[-MAX_TEXT:]


def loaded_linux() -> List[str]:
    """Shared objects mapped into this process (in address order, not load order).

    /proc/self/maps names each file by the path the kernel resolved, so symlinks are
    already followed: the path is the copy that really loaded.
    """
    seen: List[str] = []
    known: Set[str] = set()
    exe = os.path.realpath(sys.executable)
    with open("/proc/self/maps") as fh:
        for line in fh:
            parts = line.split(None, 5)
            if len(parts) < 6:
                continue
            path = parts[5].strip()
            if not path.startswith("/") or path in known or path == exe:
                continue
            base = path.rsplit("/", 1)[-1]
            if ".so" not in base and "x" not in parts[1]:
                continue
            known.add(path)
            seen.append(path)
    return seen


def loaded_windows() -> List[str]:
    """Modules of this process through K32EnumProcessModules / GetModuleFileNameW."""
    import ctypes
    from ctypes import wintypes

    kernel32 = getattr(ctypes, "WinDLL")("kernel32", use_last_error=True)  # noqa: B009
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    process = kernel32.GetCurrentProcess()
    enum = kernel32.K32EnumProcessModules
    enum.argtypes = [wintypes.HANDLE, ctypes.POINTER(wintypes.HMODULE), wintypes.DWORD,
                     ctypes.POINTER(wintypes.DWORD)]
    count = 1024
    while True:
        arr = (wintypes.HMODULE * count)()
        needed = wintypes.DWORD()
        if not enum(process, arr, ctypes.sizeof(arr), ctypes.byref(needed)):
            return []
        n = needed.value // ctypes.sizeof(wintypes.HMODULE)
        if n <= count:
            break
        count = n
    getname = kernel32.GetModuleFileNameW
    getname.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
    out: List[str] = []
    buf = ctypes.create_unicode_buffer(32768)
    for i in range(n):
        if getname(arr[i], buf, 32768):
            out.append(buf.value)
    return out


def loaded_macos() -> List[str]:
    """Images dyld has loaded (_dyld_image_count / _dyld_get_image_name)."""
    import ctypes

    libc = ctypes.CDLL(None)
    libc._dyld_image_count.restype = ctypes.c_uint32
    libc._dyld_get_image_name.restype = ctypes.c_char_p
    libc._dyld_get_image_name.argtypes = [ctypes.c_uint32]
    out: List[str] = []
    for i in range(libc._dyld_image_count()):
        name = libc._dyld_get_image_name(i)
        if name:
            out.append(os.fsdecode(name))
    return out


def loaded_libraries() -> List[str]:
    try:
        if sys.platform.startswith("linux"):
            return loaded_linux()
        if sys.platform == "win32":
            return loaded_windows()
        if sys.platform == "darwin":
            return loaded_macos()
    except Exception:  # the list is a bonus; never lose the import result over it
        return []
    return []


def _facts(name: str) -> Dict[str, Any]:
    mod = sys.modules.get(name)
    if mod is None:
        return {}
    facts: Dict[str, Any] = {"file": getattr(mod, "__file__", None), "version": None}
    version = getattr(mod, "__version__", None)
    if isinstance(version, str):
        facts["version"] = version
    ver = getattr(mod, "version", None)
    for attr in ("cuda", "hip"):
        value = getattr(ver, attr, None)
        if isinstance(value, str) or value is None:
            facts[attr] = value
    return facts


def do_import(fh: IO[str], payload: Dict[str, Any]) -> bool:
    _emit(fh, "start", pid=os.getpid(), python=sys.version.split()[0],
          platform=sys.platform, sys_path=[p for p in sys.path if isinstance(p, str)],
          baseline=loaded_libraries())
    ok = True
    for name in payload["modules"]:
        _emit(fh, "importing", module=name)
        began = time.perf_counter()
        try:
            __import__(name)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt are results too
            ok = False
            _emit(fh, "error", module=name, type=type(exc).__module__ + "." + type(exc).__name__,
                  message=_clip(exc), traceback=_clip(traceback.format_exc()),
                  seconds=time.perf_counter() - began)
            break
        _emit(fh, "imported", module=name, seconds=time.perf_counter() - began,
              facts=_facts(name))
    watch = payload.get("watch") or []
    _emit(fh, "frameworks", modules=[name for name in watch if name in sys.modules])
    _emit(fh, "loaded", libraries=loaded_libraries())
    return ok


def do_find(fh: IO[str], payload: Dict[str, Any]) -> bool:
    import importlib.util

    found: List[str] = []
    for name in payload["modules"]:
        try:
            if importlib.util.find_spec(name) is not None:
                found.append(name)
        except Exception:
            pass
    _emit(fh, "found", modules=found, sys_path=[p for p in sys.path if isinstance(p, str)])
    return True


def do_gpu(fh: IO[str], payload: Dict[str, Any]) -> bool:
    torch: Any = importlib.import_module("torch")

    info: Dict[str, Any] = {"version": torch.__version__, "cuda": torch.version.cuda,
            "hip": getattr(torch.version, "hip", None)}
    info["is_available"] = bool(torch.cuda.is_available())
    info["device_count"] = int(torch.cuda.device_count()) if info["is_available"] else 0
    info["arch_list"] = list(torch.cuda.get_arch_list()) if info["is_available"] else []
    devices: List[Dict[str, Any]] = []
    for i in range(info["device_count"]):
        dev: Dict[str, Any] = {"index": i}
        try:
            dev["name"] = torch.cuda.get_device_name(i)
            dev["capability"] = list(torch.cuda.get_device_capability(i))
            x = torch.ones(16, device=f"cuda:{i}")
            dev["kernel"] = "ok" if float((x * 2).sum().item()) == 32.0 else "wrong result"
        except Exception as exc:
            dev["kernel"] = _clip(f"{type(exc).__name__}: {exc}")
        devices.append(dev)
    info["devices"] = devices
    _emit(fh, "gpu", **info)
    return True


# The smallest ONNX model: one Identity node, float[1] -> float[1], opset 13 (67 bytes of
# ModelProto). A session on it makes ONNX Runtime load each execution provider for real.
IDENTITY_ONNX = bytes.fromhex(
    "080712003a370a100a017812017922084964656e746974791201675a0f0a0178120a0a08080112040a020801"
    "620f0a0179120a0a08080112040a02080142040a00100d")


def _session_providers(ort: Any, provider: str) -> Tuple[List[str], str]:
    """(providers the session really uses, what ONNX Runtime wrote to fd 2 meanwhile): it
    falls back to CPU silently in Python and logs why only from C++ to stderr."""
    import tempfile

    saved = os.dup(2)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 2)
        try:
            sess = ort.InferenceSession(IDENTITY_ONNX, providers=[provider, "CPUExecutionProvider"])
            used = list(sess.get_providers())
        except Exception as exc:
            used = []
            sys.stderr.write(f"{type(exc).__name__}: {exc}\n")
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        text = log.read(64 * 1024).decode("utf-8", "replace")
    return used, re.sub(r"\x1b\[[0-9;]*m", "", text).strip()


def do_ort(fh: IO[str], payload: Dict[str, Any]) -> bool:
    ort: Any = importlib.import_module("onnxruntime")
    available = [str(p) for p in ort.get_available_providers()]
    for provider in available:
        if provider == "CPUExecutionProvider":
            continue
        used, log = _session_providers(ort, provider)
        _emit(fh, "ort", version=str(ort.__version__), available=available, provider=provider,
              loaded=provider in used, used=used, log=_clip(log))
    return True


def do_spawn(fh: IO[str], payload: Dict[str, Any]) -> bool:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    ok = True
    try:
        with ctx.Pool(2) as pool:
            result = pool.map(abs, [-1, -2, -3, -4])
        _emit(fh, "spawn", what="pool", ok=result == [1, 2, 3, 4], error=None)
    except BaseException as exc:
        ok = False
        _emit(fh, "spawn", what="pool", ok=False,
              error=_clip(f"{type(exc).__name__}: {exc}"),
              traceback=_clip(traceback.format_exc()))
    if payload.get("dataloader"):
        try:
            torch: Any = importlib.import_module("torch")
            data: Any = importlib.import_module("torch.utils.data")
            DataLoader, TensorDataset = data.DataLoader, data.TensorDataset

            loader = DataLoader(TensorDataset(torch.arange(8)), batch_size=2, num_workers=2,
                                multiprocessing_context="spawn")
            total = sum(int(batch[0].sum()) for batch in loader)
            _emit(fh, "spawn", what="dataloader", ok=total == 28, error=None)
        except BaseException as exc:
            ok = False
            _emit(fh, "spawn", what="dataloader", ok=False,
                  error=_clip(f"{type(exc).__name__}: {exc}"),
                  traceback=_clip(traceback.format_exc()))
    return ok


MODES: Dict[str, Callable[[IO[str], Dict[str, Any]], bool]] = {
    "import": do_import,
    "find": do_find,
    "gpu": do_gpu,
    "ort": do_ort,
    "spawn": do_spawn,
}


def main(argv: List[str]) -> None:
    mode, result_path, payload_json = argv[1], argv[2], argv[3]
    payload = json.loads(payload_json)
    dump_after = payload.get("dump_after")
    if dump_after:
        # A hang is killed by the parent; dump every thread's stack to stderr first so the
        # report can say where the import was stuck.
        import faulthandler

        faulthandler.dump_traceback_later(float(dump_after), exit=False)
    with open(result_path, "a") as fh:
        try:
            ok = MODES[mode](fh, payload)
        except BaseException as exc:
            ok = False
            _emit(fh, "error", module=None, type=type(exc).__module__ + "." + type(exc).__name__,
                  message=_clip(exc), traceback=_clip(traceback.format_exc()))
        _emit(fh, "done", ok=ok)
    # Skip interpreter teardown: a framework's atexit/destructor crash is not the import's.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
