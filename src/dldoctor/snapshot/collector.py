"""Facts collector: runs INSIDE the target interpreter and writes one JSON document.

Why a separate script: dldoctor stands outside the patient (DESIGN §1.2). This file is fed
to the target interpreter on stdin behind a version guard (``python -c BOOT FACTS_FILE
CONFIG_JSON``, see ``collect.py``), so it must run on Python 3.8+ with the standard library
alone, must never import torch or any framework (it only *reads* their files), and must
survive anything it finds: every probe of the disk is wrapped so a broken distribution
becomes an entry in ``errors``, not a crash.

The facts go to the file named on the command line, never to stdout: site code (a ``.pth``,
``sitecustomize``) runs before this script and may print there or leave a daemon holding it.

Stdin execution also gives exactly the ``sys.path`` a user gets from ``python -c`` in the
working folder (``''`` first), which is what shadowing checks need. That same ``''`` would
let a ``json.py`` in the working folder hijack this script, so it is removed before any
import and restored for the analysis.

Secrets: environment values are redacted here, before they leave the target, with the
pattern table dldoctor passes in the config (``render/secrets.json``, the same table its
output pass uses), so the two can never disagree.
"""

import sys

_ORIG_PATH = list(sys.path)
sys.path[:] = [p for p in sys.path if p not in ("", ".")]

import ast
import csv
import hashlib
import io
import json
import os
import platform
import re
import struct
import sysconfig

COLLECTOR_VERSION = 1
MAX_EXAMPLES = 10  # file names listed per problem kind; counts are always exact
NATIVE_RE = re.compile(r"\.(?:so(?:\.[0-9]+)*|dll|pyd|dylib)$", re.IGNORECASE)
ENV_PREFIXES = (
    "CUDA", "CUDNN", "NVIDIA", "NCCL", "CONDA", "KMP_", "OMP_", "MKL", "OPENBLAS",
    "TORCH", "PYTORCH", "PADDLE", "FLAGS_", "TF_", "ORT_", "ONNX", "XLA_", "JAX_",
    "PIP_", "PYTHON", "LD_", "DYLD_", "VIRTUAL_ENV", "HIP", "ROCM", "TRITON", "CC", "CXX",
)
ENV_NAMES = ("PATH", "PATHEXT", "HOME", "USERPROFILE", "SYSTEMROOT", "WINDIR", "PROCESSOR_ARCHITECTURE")
REDACTED = "<redacted>"


class Secrets:
    """The shared pattern table (names whose value is wholly secret; secret shapes in any
    value). A match's ``secret`` group, when the pattern has one, is what gets replaced."""

    def __init__(self, table):
        table = table or {}
        self.names = [re.compile(p) for p in table.get("names", [])]
        self.not_names = set(table.get("not_names", []))
        self.values = [re.compile(p) for p in table.get("values", [])]

    def value(self, name, value):
        if name.upper() not in self.not_names and any(p.search(name) for p in self.names):
            return REDACTED
        for pattern in self.values:
            value = pattern.sub(_hide, value)
        return value


def _hide(m):
    if "secret" not in m.re.groupindex or m.start("secret") < 0:
        return REDACTED
    start, end = m.start("secret") - m.start(), m.end("secret") - m.start()
    return m.group(0)[:start] + REDACTED + m.group(0)[end:]


def environment(secrets):
    out = {}
    for name, value in os.environ.items():
        upper = name.upper()
        if upper in ENV_NAMES or upper.startswith(ENV_PREFIXES):
            out[name] = secrets.value(name, value)
    return out


def interpreter(cwd):
    base_prefix = getattr(sys, "base_prefix", getattr(sys, "real_prefix", sys.prefix))
    if os.path.isdir(os.path.join(sys.prefix, "conda-meta")):
        kind = "conda"
    elif sys.prefix != base_prefix or hasattr(sys, "real_prefix"):
        kind = "venv"
    else:
        kind = "system"
    try:
        import site

        user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    except Exception:
        user_site = None
    return {
        "executable": sys.executable,
        "version": platform.python_version(),
        "version_info": list(sys.version_info[:3]),
        "implementation": sys.implementation.name,
        "bits": struct.calcsize("P") * 8,
        "prefix": sys.prefix,
        "base_prefix": base_prefix,
        "env_kind": kind,
        "soabi": sysconfig.get_config_var("SOABI") or "",
        "ext_suffix": sysconfig.get_config_var("EXT_SUFFIX") or "",
        "platform_tag": platform_tag(),
        "abiflags": getattr(sys, "abiflags", ""),
        "gil_disabled": bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
        "sys_path": [cwd if p in ("", ".") else p for p in _ORIG_PATH],
        "cwd": cwd,
        "user_site": user_site,
        "stdlib_dirs": stdlib_dirs(),
        "markers": marker_environment(),
    }


def marker_environment():
    """PEP 508's marker variables as this interpreter's pip evaluates them (packaging's
    default_environment, rebuilt with the stdlib): Requires-Dist markers are judged in the
    target, not in dldoctor's own Python."""
    impl = sys.implementation
    iver = "%d.%d.%d" % tuple(impl.version[:3])
    if impl.version.releaselevel != "final":
        iver += impl.version.releaselevel[0] + str(impl.version.serial)
    return {
        "implementation_name": impl.name,
        "implementation_version": iver,
        "os_name": os.name,
        "platform_machine": platform.machine(),
        "platform_release": platform.release(),
        "platform_system": platform.system(),
        "platform_version": platform.version(),
        "python_full_version": platform.python_version(),
        "platform_python_implementation": platform.python_implementation(),
        "python_version": ".".join(platform.python_version_tuple()[:2]),
        "sys_platform": sys.platform,
    }


def platform_tag():
    """The platform wheels must match. sysconfig names the kernel's machine, so a 32-bit
    Python on a 64-bit Linux kernel says linux-x86_64; pip (packaging.tags) maps that to
    linux-i686 / linux-armv8l, and so must we or x86_64 wheels would look installable."""
    plat = sysconfig.get_platform()
    if struct.calcsize("P") == 4:
        plat = {"linux-x86_64": "linux-i686", "linux-aarch64": "linux-armv8l"}.get(plat, plat)
    return plat


def stdlib_dirs():
    paths = sysconfig.get_paths()
    out = {paths.get("stdlib"), paths.get("platstdlib")}
    dynload = os.path.join(paths.get("platstdlib") or "", "lib-dynload")
    out.add(dynload)
    return sorted(p for p in out if p)


def host(cpu_flags=()):
    libc = ""
    try:
        name, ver = platform.libc_ver()
        if name:
            libc = name + " " + ver
    except Exception:
        pass
    default = "linux" if sys.platform.startswith("linux") else sys.platform
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, default)
    return {
        "os": system,
        "os_release": platform.release(),
        "os_version": platform.version(),
        "machine": platform.machine(),
        "libc": libc,
        "home": os.path.expanduser("~"),
        "cpu_features": cpu_features(cpu_flags),
    }


# Windows: IsProcessorFeaturePresent ids (winnt.h PF_*_INSTRUCTIONS_AVAILABLE).
WINDOWS_PF = {"sse4_1": 37, "sse4_2": 38, "avx": 39, "avx2": 40, "avx512f": 41}
# macOS (Intel, or Rosetta): sysctl machdep.cpu.features / leaf7_features words.
SYSCTL_WORDS = {"SSE4.1": "sse4_1", "SSE4.2": "sse4_2", "POPCNT": "popcnt", "AVX1.0": "avx",
                "AVX2": "avx2", "FMA": "fma", "AVX512F": "avx512f"}


def cpu_features_from_cpuinfo(text, flags):
    """{flag: offered} for ``flags`` from /proc/cpuinfo's first "flags" line; {} when it has none."""
    for line in text.splitlines():
        if line.startswith("flags"):
            have = set(line.partition(":")[2].split())
            return {flag: flag in have for flag in flags}
    return {}


def cpu_features_from_sysctl(text):
    """{flag: offered} from the words of ``sysctl -n machdep.cpu.features machdep.cpu.leaf7_features``."""
    have = set(text.upper().split())
    return {flag: word in have for word, flag in SYSCTL_WORDS.items()} if have else {}


def cpu_features_from_windows(present):
    """{flag: offered} from IsProcessorFeaturePresent. A Windows older than an id answers
    FALSE for it, so a CPU reported without even SSE4.1 is unknown ({}), not a CPU without
    AVX. POPCNT came with SSE4.2 on every CPU that has SSE4.2."""
    answers = {flag: bool(present(pf)) for flag, pf in WINDOWS_PF.items()}
    if not answers["sse4_1"]:
        return {}
    if answers["sse4_2"]:
        answers["popcnt"] = True
    return answers


def cpu_features(flags):
    """The x86 extensions of ``flags`` (the config's, from conditions/instruction_sets.toml, as
    Linux names them) this CPU offers, as the OS reports them to this interpreter (an
    x86_64 Python under Rosetta sees Rosetta's CPU); {} when not x86 or the OS did not say."""
    if platform.machine().lower() not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return {}
    try:
        if sys.platform.startswith("linux"):
            return cpu_features_from_cpuinfo(read_text("/proc/cpuinfo", 1 << 16), flags)
        if sys.platform == "win32":
            import ctypes
            return cpu_features_from_windows(ctypes.windll.kernel32.IsProcessorFeaturePresent)
        if sys.platform == "darwin":
            import subprocess
            done = subprocess.run(["sysctl", "-n", "machdep.cpu.features", "machdep.cpu.leaf7_features"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=5, check=False)
            return cpu_features_from_sysctl(done.stdout[:1 << 16].decode("ascii", "replace"))
    except Exception:
        pass
    return {}


def read_text(path, limit=1 << 20):
    with open(path, "rb") as fh:
        return fh.read(limit).decode("utf-8", "replace")


def parse_metadata_headers(text):
    """Only the header block of METADATA / PKG-INFO: the body can be megabytes of README."""
    headers = {}
    requires = []
    for line in text.splitlines():
        if not line.strip():
            break
        if line[:1] in (" ", "\t") or ":" not in line:
            continue
        key, _, value = line.partition(":")
        key = key.strip().lower()
        value = value.strip()
        if key == "requires-dist":
            requires.append(value)
        elif key not in headers:
            headers[key] = value
    return headers, requires


def verify_record(location, record_text, verify_hashes):
    """Compare installed files with RECORD.

    Default: every file's existence (one directory listing per folder, no stat per file)
    and the size of every native library (a truncated .so/.dll is what breaks loading).
    ``verify_hashes``: size and sha256 of every file, for the slow, thorough answer.
    """
    missing, wrong_size, wrong_hash, native = [], [], [], []
    listings = {}
    total = 0
    for row in csv.reader(io.StringIO(record_text)):
        if not row or not row[0]:
            continue
        rel = row[0]
        digest = row[1] if len(row) > 1 else ""
        size = row[2] if len(row) > 2 else ""
        total += 1
        is_native = NATIVE_RE.search(rel) is not None
        if is_native:
            native.append(rel)
        if not digest or rel.endswith(".pyc"):
            continue
        folder, _, name = rel.replace("\\", "/").rpartition("/")
        if folder not in listings:
            try:
                listings[folder] = set(os.listdir(os.path.join(location, folder) if folder else location))
            except OSError:
                listings[folder] = set()
        if name not in listings[folder]:
            missing.append(rel)
            continue
        if not (is_native or verify_hashes):
            continue
        full = os.path.join(location, rel)
        try:
            st = os.stat(full)
        except OSError:
            missing.append(rel)
            continue
        if size.isdigit() and st.st_size != int(size):
            wrong_size.append(rel)
            continue
        algo, _, want = digest.partition("=")
        if verify_hashes and want and file_digest(full, algo) != want:
            wrong_hash.append(rel)
    return {
        "files": total,
        "missing": len(missing),
        "wrong_size": len(wrong_size),
        "wrong_hash": len(wrong_hash),
        "examples": (missing + wrong_size + wrong_hash)[:MAX_EXAMPLES],
        "hashes_checked": bool(verify_hashes),
    }, native


def file_digest(path, algo):
    """RECORD-style digest (urlsafe base64, no padding), or None if unreadable."""
    import base64

    try:
        h = hashlib.new(algo)
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except (OSError, ValueError):
        return None
    return base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()


def top_level_from_record(record_text):
    names = set()
    for row in csv.reader(io.StringIO(record_text)):
        if not row or not row[0] or row[0].startswith(".."):
            continue
        first = row[0].replace("\\", "/").split("/")[0]
        if first.endswith((".dist-info", ".egg-info", ".data", ".libs")) or first == "__pycache__":
            continue
        if first.endswith(".py"):
            names.add(first[:-3])
        elif "/" in row[0].replace("\\", "/"):
            names.add(first)
        elif "." in first:
            stem = first.split(".")[0]
            if NATIVE_RE.search(first) and stem:
                names.add(stem)
    return sorted(n for n in names if n.isidentifier())


def distribution(location, entry, verify_hashes):
    meta_dir = os.path.join(location, entry)
    is_dist_info = entry.endswith(".dist-info")
    meta_file = os.path.join(meta_dir, "METADATA" if is_dist_info else "PKG-INFO")
    dist = {"metadata_dir": meta_dir, "location": location, "kind": "dist-info" if is_dist_info else "egg-info"}
    try:
        headers, requires = parse_metadata_headers(read_text(meta_file, 256 * 1024))
    except OSError as exc:
        headers, requires = {}, []
        dist["problem"] = "unreadable metadata: " + str(exc.strerror or exc)
    stem = entry.rsplit(".", 1)[0]
    dist["name"] = headers.get("name") or stem.split("-")[0]
    dist["version"] = headers.get("version") or (stem.split("-")[1] if "-" in stem else "")
    dist["requires"] = requires
    if "name" not in headers and "problem" not in dist:
        dist["problem"] = "METADATA has no Name"
    for fname, key in (("INSTALLER", "installer"), ("top_level.txt", "top_level_raw")):
        try:
            dist[key] = read_text(os.path.join(meta_dir, fname), 64 * 1024).strip()
        except OSError:
            dist[key] = ""
    tags = []
    try:
        for line in read_text(os.path.join(meta_dir, "WHEEL"), 64 * 1024).splitlines():
            if line.lower().startswith("tag:"):
                tags.append(line.split(":", 1)[1].strip())
    except OSError:
        pass
    dist["tags"] = tags
    dist["editable"] = False
    try:
        direct = json.loads(read_text(os.path.join(meta_dir, "direct_url.json"), 64 * 1024))
        dist["editable"] = bool(direct.get("dir_info", {}).get("editable"))
    except (OSError, ValueError, AttributeError):
        pass
    record_text = None
    if is_dist_info:
        try:
            record_text = read_text(os.path.join(meta_dir, "RECORD"), 64 << 20)
        except OSError:
            dist["problem"] = dist.get("problem") or "RECORD missing"
    if record_text is not None:
        dist["record"], dist["native_libs"] = verify_record(location, record_text, verify_hashes)
    else:
        dist["record"], dist["native_libs"] = None, []
    top = dist.pop("top_level_raw").split()
    if not top and record_text:
        top = top_level_from_record(record_text)
    dist["top_level"] = sorted({t.replace("/", ".").split(".")[0] for t in top if t})
    return dist


def site_dirs():
    seen, out = set(), []
    for p in _ORIG_PATH:
        if p in ("", "."):
            continue
        key = os.path.normcase(os.path.abspath(p))
        if key not in seen and os.path.isdir(p):
            seen.add(key)
            out.append(p)
    return out


def distributions(verify_hashes, errors):
    out = []
    for location in site_dirs():
        try:
            entries = sorted(os.listdir(location))
        except OSError as exc:
            errors.append("cannot list %s: %s" % (location, exc.strerror or exc))
            continue
        for entry in entries:
            if entry.startswith("~"):  # pip's stash of an interrupted run: pip_leftovers
                continue
            if entry.endswith((".dist-info", ".egg-info")) and os.path.isdir(os.path.join(location, entry)):
                try:
                    out.append(distribution(location, entry, verify_hashes))
                except Exception as exc:
                    errors.append("cannot read %s: %r" % (os.path.join(location, entry), exc))
    return out


MAX_OWNED_FILES = 40  # files hashed per duplicate dist-info to tell whose files are on disk


def matching_files(dist):
    """How many of the first files this dist-info's RECORD lists (its code, not metadata) are
    on disk with the hash RECORD gives: of two dist-infos of one package in one folder, the
    files that import are the ones whose hashes match, whichever dist-info sorts first."""
    try:
        text = read_text(os.path.join(dist["metadata_dir"], "RECORD"), 64 << 20)
    except OSError:
        return 0
    hits = checked = 0
    for row in csv.reader(io.StringIO(text)):
        if checked >= MAX_OWNED_FILES:
            break
        if len(row) < 2 or not row[1] or ".dist-info/" in row[0] or row[0].endswith(".pyc"):
            continue
        algo, _, want = row[1].partition("=")
        checked += 1
        if file_digest(os.path.join(dist["location"], row[0]), algo) == want:
            hits += 1
    return hits


def mark_duplicates(dists):
    groups = {}  # type: dict
    for d in dists:
        groups.setdefault(re.sub(r"[-_.]+", "-", d["name"]).lower(), []).append(d)
    for group in groups.values():
        if len(group) > 1:
            for d in group:
                d["matching_files"] = matching_files(d) if d["kind"] == "dist-info" else None


def literal_assignments(path):
    """Module-level ``NAME = <literal>`` pairs of a version file, read without importing it."""
    values = {}
    tree = ast.parse(read_text(path, 1 << 20), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            target, value = node.target.id, node.value
        else:
            continue
        try:
            values[target] = ast.literal_eval(value)
        except ValueError:
            continue
    return values


def frameworks(dists, table, errors):
    """Build facts of each installed framework, from the files named in the host's table."""
    out = []
    by_name = {}  # type: dict
    for d in dists:
        by_name.setdefault(re.sub(r"[-_.]+", "-", d["name"]).lower(), d)
    for spec in table:
        for dist_name in spec["dists"]:
            d = by_name.get(dist_name)
            if d is None:
                continue
            fact = {"name": spec["name"], "dist": d["name"], "version": d["version"], "file": None, "values": {}}
            for rel in spec["files"]:
                path = os.path.join(d["location"], *rel.split("/"))
                if os.path.isfile(path):
                    fact["file"] = path
                    try:
                        raw = literal_assignments(path)
                    except (OSError, SyntaxError, ValueError) as exc:
                        errors.append("cannot read %s: %s" % (path, exc))
                        break
                    flat = {}
                    for key, value in raw.items():
                        if isinstance(value, dict):
                            for k2, v2 in value.items():
                                if isinstance(k2, str):
                                    flat[k2] = v2
                        else:
                            flat[key] = value
                    scalar = (str, int, float, bool, type(None))
                    fact["values"] = {k: v for k, v in flat.items() if k in spec["keys"] and isinstance(v, scalar)}
                    break
            out.append(fact)
            break
    return out


MAX_IMPORT_FILES = 300  # per distribution: enough for any __init__ closure, bounded for hostile trees


def module_level_imports(tree):
    """(lineno, absolute-or-relative name, level, names, guarded) run when the module is imported.

    Function bodies run later and ``if TYPE_CHECKING:`` never runs, so both are skipped;
    try/if/with/class bodies do run at import time.
    """
    out = []  # type: list

    def walk(body, guarded):
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    out.append((node.lineno, alias.name, 0, (), guarded))
            elif isinstance(node, ast.ImportFrom):
                names = tuple(a.name for a in node.names)
                out.append((node.lineno, node.module or "", node.level or 0, names, guarded))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            elif isinstance(node, ast.If):
                test = node.test
                name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
                if name != "TYPE_CHECKING":
                    walk(node.body, guarded)
                walk(node.orelse, guarded)
            elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                walk(node.body, True)
                for handler in node.handlers:
                    walk(handler.body, guarded)
                walk(node.orelse, guarded)
                walk(node.finalbody, guarded)
            elif isinstance(node, (ast.With, ast.For, ast.While, ast.ClassDef)):
                walk(node.body, guarded)
    walk(tree.body, False)
    return out


def module_file(location, dotted):
    base = os.path.join(location, *dotted.split("."))
    for cand in (os.path.join(base, "__init__.py"), base + ".py"):
        if os.path.isfile(cand):
            return cand
    return None


def framework_imports(dist, framework_modules):
    """Chains by which importing this distribution imports a framework at import time."""
    location = dist["location"]
    queue, seen, found = [], set(), {}  # type: list, set, dict
    for top in dist["top_level"]:
        path = module_file(location, top)
        if path:
            queue.append((top, path, []))
    parsed = 0
    while queue and parsed < MAX_IMPORT_FILES:
        module, path, chain = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        parsed += 1
        try:
            tree = ast.parse(read_text(path, 4 << 20), path)
        except (OSError, SyntaxError, ValueError):
            continue
        is_pkg = path.endswith("__init__.py")
        package = module if is_pkg else module.rpartition(".")[0]
        rel_path = os.path.relpath(path, location).replace(os.sep, "/")
        for lineno, name, level, names, guarded in module_level_imports(tree):
            if level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (level - 1)]) if level - 1 < len(parts) else ""
                absolute = base + ("." + name if name else "") if base else name
            else:
                absolute = name
            step = [*chain, "%s:%d" % (rel_path, lineno)]
            head = absolute.split(".")[0]
            if head in framework_modules:
                found.setdefault(head, {"framework": head, "chain": step, "guarded": guarded})
                continue
            if head not in dist["top_level"]:
                continue
            targets = [absolute] + [absolute + "." + n for n in names if n != "*"]
            for target in targets:
                target_path = module_file(location, target)
                if target_path and target_path not in seen:
                    queue.append((target, target_path, step))
    return list(found.values())


def requirement_names(requires):
    out = {}
    for req in requires:
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
        if m:
            out[re.sub(r"[-_.]+", "-", m.group(1)).lower()] = "extra" in req.split(";", 1)[1] if ";" in req else False
    return out


def add_framework_imports(dists, table, also):
    """Only distributions that name a framework as an optional extra, or that the data
    file lists, are followed: reading every package's import closure would cost seconds."""
    framework_dists = {name for spec in table for name in spec["dists"]}
    modules = {spec["module"] for spec in table}
    installed = {re.sub(r"[-_.]+", "-", d["name"]).lower() for d in dists}
    if not installed & framework_dists:
        return
    for d in dists:
        key = re.sub(r"[-_.]+", "-", d["name"]).lower()
        if key in framework_dists:
            continue
        reqs = requirement_names(d["requires"])
        optional = [n for n in reqs if n in framework_dists and reqs[n]]
        if optional or key in also:
            try:
                d["framework_imports"] = framework_imports(d, modules)
            except Exception as exc:
                d["framework_imports"] = []
                d["problem"] = d.get("problem") or "cannot follow imports: %r" % (exc,)


def list_dir(path, cache):
    if path not in cache:
        try:
            cache[path] = set(os.listdir(path))
        except OSError:
            cache[path] = set()
    return cache[path]


def find_module(name, cache, suffixes):
    """Where ``import name`` would land first: (path_entry, file), or None.

    Mirrors PathFinder: per sys.path entry, a regular package (dir with __init__) or a
    module file wins at once; a plain directory is only a namespace portion, and the
    search goes on (so it never shadows a regular package further down).
    """
    for entry in _ORIG_PATH:
        base = os.getcwd() if entry in ("", ".") else entry
        names = list_dir(base, cache)
        if not names:
            continue
        if name in names:
            pkg = os.path.join(base, name)
            for init in ("__init__.py", "__init__.pyc"):
                if os.path.isfile(os.path.join(pkg, init)):
                    return base, pkg
        for suffix in suffixes:
            if name + suffix in names:
                return base, os.path.join(base, name + suffix)
    return None


def shadows(dists, cwd):
    """Modules whose first hit on sys.path is not the distribution that installed them."""
    import importlib.machinery as machinery

    suffixes = [*list(machinery.EXTENSION_SUFFIXES), ".py", ".pyc"]
    cache = {}  # type: dict
    out = []
    std = {os.path.normcase(os.path.abspath(p)) for p in stdlib_dirs()}
    for d in dists:
        if d.get("editable"):  # the code lives elsewhere on purpose (a .pth or finder hook)
            continue
        location = os.path.normcase(os.path.abspath(d["location"]))
        for module in d["top_level"]:
            hit = find_module(module, cache, suffixes)
            if hit is None:
                continue
            base, path = hit
            base_key = os.path.normcase(os.path.abspath(base))
            if base_key in std:  # a stdlib module wins over its backport on purpose
                continue
            if base_key != location:
                out.append({"module": module, "path": path, "dist": d["name"], "installed_at": d["location"],
                            "in_cwd": os.path.normcase(os.path.abspath(base)) == os.path.normcase(cwd)})
    return out


LAUNCHER_SHEBANG = re.compile(rb"#!\s*\"?([^\r\n\"]*?python[^\r\n\"]*?)\"?\s*\r?\n", re.IGNORECASE)


def script_interpreter(path):
    """The interpreter a console script runs: its shebang, or the one embedded in a
    Windows launcher .exe (distlib appends ``#!python`` and a zip archive)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(512)
            if head.startswith(b"#!"):
                first = head.split(b"\n", 1)[0][2:].strip()
                if first == b"/bin/sh":  # pip's wrapper for long shebangs
                    m = re.search(rb"'''exec' \"?([^\"' ]+)", head)
                    return m.group(1).decode("utf-8", "replace") if m else None
                text = first.decode("utf-8", "replace")
                if text.startswith("/usr/bin/env "):
                    return None
                return text.split()[0].strip('"') if "python" in text.lower() else None
            if head.startswith(b"MZ"):
                size = os.path.getsize(path)
                fh.seek(max(0, size - 65536))
                tail = fh.read()
                pk = tail.rfind(b"PK\x03\x04")
                hits = list(LAUNCHER_SHEBANG.finditer(tail[:pk] if pk > 0 else tail))
                return hits[-1].group(1).decode("utf-8", "replace") if hits else None
    except OSError:
        return None
    return None


def which(name, path_value):
    exts = [""]
    if os.name == "nt":
        exts = [e.lower() for e in os.environ.get("PATHEXT", ".EXE;.BAT;.CMD").split(";") if e]
    for folder in path_value.split(os.pathsep):
        if not folder:
            continue
        for ext in exts:
            cand = os.path.join(folder, name + ext)
            if os.path.isfile(cand) and (os.name == "nt" or os.access(cand, os.X_OK)):
                return cand
    return None


def path_tools():
    path_value = os.environ.get("PATH", "")
    out = {}
    for name in ("python", "python3", "pip", "pip3"):
        found = which(name, path_value)
        if found is None:
            continue
        interp = found if name.startswith("python") else script_interpreter(found)
        out[name] = {"path": found, "interpreter": interp}
    return out


SEARCH_VARS = {
    "windows": ("PATH",),
    "linux": ("LD_LIBRARY_PATH",),
    "macos": ("DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH"),
}


def env_root(folder):
    """The Python environment a folder belongs to (a parent holding pyvenv.cfg or conda-meta)."""
    cur = os.path.abspath(folder)
    for _ in range(8):
        if os.path.isfile(os.path.join(cur, "pyvenv.cfg")) or os.path.isdir(os.path.join(cur, "conda-meta")):
            return cur
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    return None


def search_path_entries(system, dists):
    """Each folder of the loader's search variable, with the env it belongs to and which of
    this environment's native library names it also holds (the copies it could shadow)."""
    fold = (lambda n: n.lower()) if system == "windows" else (lambda n: n)
    ours = set()
    for d in dists:
        for rel in d["native_libs"]:
            ours.add(fold(rel.replace("\\", "/").rsplit("/", 1)[-1]))
    out = []
    for var in SEARCH_VARS.get(system, ()):
        value = os.environ.get(var, "")
        for index, folder in enumerate(value.split(os.pathsep)):
            if not folder:
                continue
            entry = {"var": var, "index": index, "path": folder, "exists": os.path.isdir(folder),
                     "env_root": None, "same_names": [], "libraries": 0}
            if entry["exists"]:
                entry["env_root"] = env_root(folder)
                try:
                    names = [n for n in os.listdir(folder) if NATIVE_RE.search(n)]
                except OSError:
                    names = []
                entry["libraries"] = len(names)
                entry["same_names"] = sorted({n for n in names if fold(n) in ours})[:50]
            out.append(entry)
    return out


ABI_TAG = re.compile(r"\.(cpython-[0-9]+[a-z]*|cp[0-9]+[a-z]*)[-.]", re.IGNORECASE)
CHECKOUT_MARKERS = ("setup.py", "pyproject.toml", ".git")
MAX_LISTED = 2000  # names read per PYTHONPATH folder (top level and one level down)


def python_path_entries(cache):
    """Each PYTHONPATH folder with what tells another Python or environment apart: the env it
    lies in, the interpreter tags of its compiled modules (``cpython-39``, ``cp39``) and a
    source-checkout marker in it or its parent. PYTHONPATH goes before site-packages, so
    whatever it holds wins over the environment's own copies."""
    out = []
    value = os.environ.get("PYTHONPATH", "")
    for index, folder in enumerate(value.split(os.pathsep)):
        if not folder:
            continue
        entry = {"path": folder, "index": index, "exists": os.path.isdir(folder), "env_root": None,
                 "abi_tags": [], "checkout": ""}
        if entry["exists"]:
            entry["env_root"] = env_root(folder)
            tags, seen = set(), 0
            for name in sorted(list_dir(folder, cache)):
                names = [name]
                sub = os.path.join(folder, name)
                if seen < MAX_LISTED and os.path.isdir(sub):
                    names += sorted(list_dir(sub, cache))
                for n in names[: MAX_LISTED - seen]:
                    m = ABI_TAG.search(n) if NATIVE_RE.search(n) else None
                    if m:
                        tags.add(m.group(1).lower())
                seen += len(names)
                if seen >= MAX_LISTED:
                    break
            entry["abi_tags"] = sorted(tags)
            for base in (folder, os.path.dirname(os.path.abspath(folder))):
                hit = [m for m in CHECKOUT_MARKERS if m in list_dir(base, cache)]
                if hit:
                    entry["checkout"] = os.path.join(base, hit[0])
                    break
        out.append(entry)
    return out


def pip_leftovers(cache):
    """``~name`` entries pip leaves in a site folder when an install or uninstall is cut
    short (its stash of the old copy is the name with the first letter replaced by ~)."""
    out = []
    for location in site_dirs():
        for name in sorted(list_dir(location, cache)):
            if name.startswith("~"):
                out.append(os.path.join(location, name))
    return out


def conda_meta(prefix):
    """name -> version of each conda package (conda-meta/NAME-VERSION-BUILD.json)."""
    folder = os.path.join(prefix, "conda-meta")
    out = {}
    if os.path.isdir(folder):
        for entry in os.listdir(folder):
            if entry.endswith(".json") and entry.count("-") >= 2:
                name, version, _ = entry[:-5].rsplit("-", 2)
                out[name] = version
    return out


def main(argv):
    out_path = argv[1]
    config = json.loads(argv[2]) if len(argv) > 2 else {}
    errors = []  # type: list
    cwd = os.getcwd()
    listings = {}  # type: dict
    dists = distributions(bool(config.get("verify_hashes")), errors)
    mark_duplicates(dists)
    add_framework_imports(dists, config.get("frameworks", []), set(config.get("known_importers", [])))
    conda = conda_meta(sys.prefix)
    host_facts = host(config.get("cpu_flags", ()))
    facts = {
        "collector_version": COLLECTOR_VERSION,
        "host": host_facts,
        "interpreter": interpreter(cwd),
        "env": environment(Secrets(config.get("secrets"))),
        "distributions": dists,
        "frameworks": frameworks(dists, config.get("frameworks", []), errors),
        "shadows": shadows(dists, os.path.normcase(cwd)),
        "path_tools": path_tools(),
        "conda_packages": sorted(conda),
        "conda_versions": conda,
        "search_path": search_path_entries(host_facts["os"], dists),
        "python_path": python_path_entries(listings),
        "leftovers": pip_leftovers(listings),
        "errors": errors,
    }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(facts, fh, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
