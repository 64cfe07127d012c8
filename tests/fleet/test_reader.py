"""`fleet --from` reads fast without reading differently: the home placeholder restored on
the JSON text gives exactly what the tree walk gives (or declines), and a folder parsed in
worker processes gives the same report, row for row, as one read in this process."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

from dldoctor.fleet.group import from_folder, judge_fleet
from dldoctor.render.diff import FLEET_RENDERERS
from dldoctor.snapshot import pool
from dldoctor.snapshot.collect import PLACEHOLDER_HOME, unredact_home
from dldoctor.snapshot.rawhome import loads_restored
from tests.fleet.helpers import take_snapshot

# Strings where the encoded text and the decoded string disagree about a ~'s neighbours
# (escapes), Windows paths (each backslash written twice), keys with a ~, a ~ at the end.
TRICKY = ["~", "~/", "~\\", "~\\venv\\Lib", "C:\\a~\\b", "x ~\\y", "\\~", "~~", "a\\~/b", "~\n", "\t~/x",
          "é~/x", "☃~/x", "~\"", "\"~/x", "~/\\n", "/~home~", "~home~/x", "C:\\Users\\~home~", "~\u007e/"]


def document(home: Any, os_name: str, value: str) -> Dict[str, Any]:
    return {"schema_version": 1, "host": {"os": os_name, "home": home},
            "env": {"PATH": value, value: value}, "interpreter": {"sys_path": [value, "~/lib", "~"]}}


@pytest.mark.parametrize("value", TRICKY)
@pytest.mark.parametrize("home, os_name", [("~", "linux"), ("~", "windows"), (None, "linux"), ("/root", "linux")])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_text_restore_is_the_walk_or_declines(value: str, home: Any, os_name: str, ascii_only: bool) -> None:
    raw = json.dumps(document(home, os_name, value), ensure_ascii=ascii_only).encode()
    got = loads_restored(raw)
    assert got is None or json.dumps(got) == json.dumps(unredact_home(json.loads(raw)))


def test_a_written_snapshot_takes_the_text_path(tmp_path: Path) -> None:
    """A file as `dldoctor snapshot -o` writes it is restored on the text (the walk is the
    exception), with the placeholder home in the same places the walk puts it."""
    raw = take_snapshot(Path(sys.executable), tmp_path / "s.json").read_bytes()
    got = loads_restored(raw)
    assert got is not None and got == unredact_home(json.loads(raw))
    assert got["host"]["home"] == PLACEHOLDER_HOME["other"]


def test_escaped_tilde_declines() -> None:
    assert loads_restored(b'{"host": {"home": "~"}, "x": "\\u007e/a"}') is None


def test_pooled_folder_reports_as_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Enough files for worker processes: distinct contents, repeated ones, odd machines and
    broken files give the same report, in the same order, as reading them here."""
    base = json.loads(take_snapshot(Path(sys.executable), tmp_path / "base.json").read_text(encoding="utf-8"))
    folder = tmp_path / "fleet"
    folder.mkdir()
    for i in range(pool.POOL_FROM + 6):
        snap = json.loads(json.dumps(base))
        snap["interpreter"]["cwd"] = f"/scratch/job-{i % 50}"  # some contents repeat
        if i % 17 == 3:
            snap["env"]["LD_LIBRARY_PATH"] = "/opt/cuda-11.8/lib64"
        (folder / f"node-{i}.json").write_text(json.dumps(snap), encoding="utf-8")
    (folder / "node-x.json").write_text('{"schema_version": 1, "host": ', encoding="utf-8")
    (folder / "node-y.json").write_text('{"schema_version": 1, "env": {"PATH": 3}}', encoding="utf-8")
    assert pool.workers() >= 2, "this machine has one core: the pool is never used"
    pooled = FLEET_RENDERERS["json"](judge_fleet(from_folder(str(folder)), "f"))
    monkeypatch.setattr(pool, "POOL_FROM", 10**9)
    here = FLEET_RENDERERS["json"](judge_fleet(from_folder(str(folder)), "f"))
    assert pooled == here
    doc = json.loads(here)
    assert len(doc["groups"]) == 2 and [f["machine"] for f in doc["failed"]] == ["node-x", "node-y"]
