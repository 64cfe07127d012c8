"""Real Linux oracles: run ``ldd`` / ``libtree`` and parse what they print."""

# Loader paths are plain strings of the modelled OS (posix or Windows), not pathlib paths.
from __future__ import annotations

import os
import re
import subprocess
from typing import Dict, Mapping, Set

from dldoctor.binary import read_binary
from dldoctor.loader.graph import HostFileSystem, LoadGraph
from dldoctor.loader.linux import host_config, resolve_linux

_LDD = re.compile(r"^\s*(\S+)\s+=>\s+(not found|(\S+)\s+\(0x[0-9a-f]+\))\s*$")
_TREE_CHARS = re.compile(r"^[\s│├└─]+")


def parse_ldd(text: str) -> Dict[str, str | None]:
    """name -> real path (None: not found) for every ``name => ...`` line of ldd."""
    out: Dict[str, str | None] = {}
    for line in text.splitlines():
        m = _LDD.match(line)
        if m:
            out[m.group(1)] = None if m.group(2) == "not found" else os.path.realpath(m.group(3))
    return out


def run_ldd(path: str, env: Mapping[str, str] | None = None) -> Dict[str, str | None]:
    proc = subprocess.run(
        ["ldd", path], capture_output=True, text=True, env=dict(env or os.environ), timeout=60
    )
    return parse_ldd(proc.stdout)


def run_libtree(path: str, env: Mapping[str, str] | None = None) -> Dict[str, Set[str]]:
    """{"found": real paths, "missing": names, "reasons": "[rpath of 1]"-style tags seen}."""
    proc = subprocess.run(
        ["libtree", "-p", "-vvv", path],
        capture_output=True,
        text=True,
        env=dict(env or os.environ),
        timeout=60,
    )
    found: Set[str] = set()
    missing: Set[str] = set()
    reasons: Set[str] = set()
    for line in proc.stdout.splitlines()[1:]:
        body = _TREE_CHARS.sub("", line)
        if " not found" in body:
            missing.add(body.split()[0])
            continue
        tag = re.search(r"\[([^\]]+)\]", body)
        if tag:
            reasons.add(tag.group(1))
        found.add(os.path.realpath(body.split(" ")[0]))
    return {"found": found, "missing": missing, "reasons": reasons}


def model(path: str, env: Mapping[str, str] | None = None) -> LoadGraph:
    """dldoctor's Linux model for ``path`` under ``env`` (this host's ld.so configuration)."""
    info = read_binary(path)
    cfg = host_config(dict(env if env is not None else os.environ), info.machine, info.bits)
    return resolve_linux(path, read_binary, HostFileSystem(), cfg)


def model_map(graph: LoadGraph) -> Dict[str, str | None]:
    """name -> real path of the first request of each name (what ldd shows once)."""
    return {e.resolution.name: e.resolution.path for e in graph.unique()}


def compare_with_ldd(path: str, env: Mapping[str, str] | None = None) -> Dict[str, object]:
    """Names ldd lists whose real path differs from the model's (and the model's view)."""
    ldd = run_ldd(path, env)
    ours = model_map(model(path, env))
    mismatches = {
        n: (p, ours.get(n, "<absent>")) for n, p in ldd.items() if ours.get(n, "<absent>") != p
    }
    return {"ldd": ldd, "model": ours, "mismatches": mismatches}
