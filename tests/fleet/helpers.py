"""Real snapshots for the diff and fleet tests: `dldoctor snapshot -o` run as a user runs it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Dict, Optional

import jsonschema

from dldoctor.fleet.group import Machine
from dldoctor.snapshot.collect import load_snapshot
from tests.conftest import run_dldoctor

SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "dldoctor" / "render"
SYSTEM_GOMP = Path("/usr/lib/x86_64-linux-gnu/libgomp.so.1")  # gcc's runtime (tests/system-deps.sh)


def take_snapshot(python: Path, out: Path, env: Optional[Dict[str, str]] = None) -> Path:
    done = run_dldoctor("snapshot", "--python", str(python), "-o", str(out), env=env)
    assert done.returncode == 0, done.stderr
    return out


def foreign_gomp(folder: Path) -> Path:
    """A folder holding another build of libgomp.so.1 (the system's, not torch's bundled
    one): what a cluster module or an old CUDA install puts on LD_LIBRARY_PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SYSTEM_GOMP.resolve(), folder / "libgomp.so.1")
    return folder


def diff_json(*args: str) -> Dict[str, Any]:
    done = run_dldoctor("diff", *args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    doc: Dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(doc, json.loads((SCHEMAS / "diff.schema.json").read_text(encoding="utf-8")))
    assert (done.returncode == 1) == any(d["weight"] == "error" for d in doc["differences"])
    return doc


def validate_fleet(doc: Dict[str, Any]) -> None:
    jsonschema.validate(doc, json.loads((SCHEMAS / "fleet.schema.json").read_text(encoding="utf-8")))


def machine(name: str, path: Path) -> Machine:
    return Machine(name, load_snapshot(str(path)))
