"""Ground truth for the main-guard rule: run a script under spawn and see what its children do.

``observe(python, script)`` runs ``oracle/run_script.py SCRIPT`` with ``python`` in a fresh
session (its own process group), a temporary working folder and a timeout. The oracle's
``sitecustomize`` records each process start attempted by a child while it re-imports the
script (the condition behind "An attempt has been made to start a new process before the
current process has finished its bootstrapping phase"), with the script's module-level line.

A script *fails* when such an attempt is recorded or the bootstrapping message is printed;
the process group is killed as soon as that is known (an unguarded Pool otherwise respawns
dying workers forever). Otherwise the script must finish (exit status 0) within the timeout,
or the observation is inconclusive and the caller must not use it as a label.

    python tests/lint/spawn_oracle.py PYTHON SCRIPT...   # print what each script does
"""

from __future__ import annotations

import ast
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

ORACLE = Path(__file__).parent / "oracle"
BOOTSTRAP = "before the current process has finished its bootstrapping phase"
CHILD_DIED = "in _fixup_main_from_path"
_MARK_LINE = re.compile(r"start-during-bootstrap (\d+)")


@dataclass(frozen=True)
class Outcome:
    verdict: str  # "fails", "passes" or "inconclusive"
    line: Optional[int]  # fails: the script's module-level line where a child tried to start
    detail: str  # last lines of output (inconclusive: why)
    seconds: float


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def observe(python: str, script: Path, timeout: float = 90.0) -> Outcome:
    script = script.resolve()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dld-spawn-") as tmp:
        mark = Path(tmp) / "mark"
        log = Path(tmp) / "log"
        work = Path(tmp) / "cwd"
        work.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env.update(
            PYTHONPATH=str(ORACLE),
            DLDOCTOR_SPAWN_MARK=str(mark),
            DLDOCTOR_SPAWN_SCRIPT=str(script),
            PYTHONDONTWRITEBYTECODE="1",
            OMP_NUM_THREADS="1",
        )
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [python, str(ORACLE / "run_script.py"), str(script)],
                cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            verdict = ""
            while not verdict:
                time.sleep(0.05)
                done = proc.poll() is not None
                text = log.read_text(errors="replace")
                if (mark.exists() and mark.stat().st_size) or BOOTSTRAP in text:
                    verdict = "fails"
                elif CHILD_DIED in text:
                    verdict = "inconclusive"  # a child died re-importing the script, otherwise
                elif done:
                    verdict = "passes" if proc.returncode == 0 else "inconclusive"
                elif time.monotonic() - start > timeout:
                    verdict = "inconclusive"
            _kill(proc)
        text = log.read_text(errors="replace")
        found = _MARK_LINE.findall(mark.read_text()) if mark.exists() else []
        line = int(found[0]) if found and found[0] != "0" else None
        tail = "\n".join(text.splitlines()[-15:])
        if verdict == "inconclusive" and proc.returncode not in (0, -9):
            tail = f"exit status {proc.returncode}\n{tail}"
        return Outcome(verdict, line, tail, time.monotonic() - start)


def _module_level_statement(tree: ast.Module, line: int) -> Optional[ast.stmt]:
    """The innermost statement outside any function or class that starts on ``line``."""
    found: Optional[ast.stmt] = None
    todo: List[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if stmt.lineno == line:
            found = stmt
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo.extend(getattr(stmt, field, []))
    return found


def without(text: str, lines: Sequence[int]) -> str:
    """The script with the module-level statements on ``lines`` replaced by ``pass``.

    Line numbers stay as they were, so the next start's line can be observed as it is in the
    original: this is how a script with several unguarded starts has each one confirmed.
    """
    tree = ast.parse(text)
    out = text.splitlines()
    for line in lines:
        stmt = _module_level_statement(tree, line)
        if stmt is None:
            raise ValueError(f"no module-level statement starts on line {line}")
        end = stmt.end_lineno or stmt.lineno
        indent = out[stmt.lineno - 1][: stmt.col_offset]
        out[stmt.lineno - 1] = indent + "pass"
        for i in range(stmt.lineno, end):
            out[i] = ""
    return "\n".join(out) + "\n"


def observe_each(python: str, script: Path, lines: Sequence[int], timeout: float = 90.0) -> List[Outcome]:
    """Observe the script, then for each later line a copy without the starts before it."""
    outcomes = [observe(python, script, timeout)]
    text = script.read_text(encoding="utf-8")
    for k in range(1, len(lines)):
        variant = script.with_name(f".{script.stem}.without{k}.py")
        variant.write_text(without(text, lines[:k]), encoding="utf-8")
        try:
            outcomes.append(observe(python, variant, timeout))
        finally:
            variant.unlink()
    return outcomes


def main(argv: Sequence[str]) -> int:
    python, scripts = argv[0], argv[1:]
    for arg in scripts:
        script, _, spec = arg.partition(":")  # script.py:16,21,24 also checks later starts
        lines = [int(x) for x in spec.split(",") if x]
        for o in observe_each(python, Path(script), lines or [0]):
            print(f"{script}: {o.verdict} line={o.line} ({o.seconds:.1f}s)")
            if o.verdict == "inconclusive":
                print("   " + o.detail.replace("\n", "\n   "))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
