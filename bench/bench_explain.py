"""Benchmark: `dldoctor explain` matching on a 10,000-line log.

The log is built from corpus cases (tests/data/explain) scattered among realistic noise
lines (training progress, pip output, warnings). Printed, the median of N runs:

  dldoctor match     anchor-prefiltered signatures (what explain runs)
  dldoctor full      match + weigh + text rendering
  python naive       every signature regex over the whole text, no prefilter
  grep -E            GNU grep with the signatures translated to POSIX ERE (those that
                     translate), one process, -i -c -f: a peer doing the same search in C
  grep -F anchors    GNU grep with only the literal anchors (fixed strings)

    python bench/bench_explain.py [--lines 10000] [--runs 7]
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Optional, Tuple

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.anchors import Prepared, anchor_windows
from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.match import _matches, _plan_of, match_text
from dldoctor.explainer.signatures import SignatureSet, load_signatures, without_first_chars
from dldoctor.render.text import render_explain

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "explain"
NOISE = [
    "Epoch {a}/100: 100%|##########| {b}/{b} [00:{a:02d}<00:00, 3.{a}it/s, loss={a}.{b}]",
    "2024-05-0{a} 12:{b:02d}:07,123 - trainer - INFO - step {b} lr=0.000{a} grad_norm=1.{b}",
    "  Downloading torch-2.{a}.{b}-cp311-cp311-manylinux1_x86_64.whl (755.{b} MB)",
    "Requirement already satisfied: numpy>=1.{a} in ./venv/lib/python3.11/site-packages",
    "/venv/lib/python3.11/site-packages/torch/nn/modules/conv.py:{b}: UserWarning: deprecated",
    "  warnings.warn(",
    'INFO:     127.0.0.1:{b} - "POST /v1/predict HTTP/1.1" 200 OK',
    "[rank{a}]: Validation: mAP={a}.{b} recall=0.{b} precision=0.{a}",
    "{b} images, {a} backgrounds, 0 corrupt: 100%|##########| {b}/{b}",
    "",
]


def build_log(lines: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    cases = [c.text.strip("\n") for c in load_corpus(CORPUS)]
    out: List[str] = []
    while len(out) < lines:
        if rng.random() < 0.004:
            out.extend(rng.choice(cases).split("\n"))
        else:
            out.append(rng.choice(NOISE).format(a=rng.randrange(10), b=rng.randrange(100, 999)))
    return "\n".join(out[:lines]) + "\n"


def best_of(runs: int, fn: Callable[[], object]) -> float:
    """The median of ``runs`` timings (robust on a shared, loaded machine)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


_UNSUPPORTED = ("(?!", "(?=", "(?<", "\\n", "[\\s\\S]", "*?", "+?", "??", "}?", "\\S")
_CLASS_OUT = {"w": "[[:alnum:]_]", "d": "[0-9]", "s": "[[:space:]]"}
_CLASS_IN = {"w": "[:alnum:]_", "d": "0-9", "s": "[:space:]"}


def to_ere(pattern: str) -> Optional[str]:
    """A POSIX ERE for GNU grep, or None when the regex uses what ERE lacks."""
    if any(tok in pattern for tok in _UNSUPPORTED):
        return None
    src = re.sub(r"\(\?P<\w+>", "(", pattern).replace("(?:", "(")
    out: List[str] = []
    in_class, i = False, 0
    while i < len(src):
        ch = src[i]
        if ch == "\\" and i + 1 < len(src):
            nxt = src[i + 1]
            table = _CLASS_IN if in_class else _CLASS_OUT
            out.append(table.get(nxt, ("\\" if not in_class else "") + nxt))
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class and out and out[-1] not in ("[", "[^"):
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def grep_accepts(pattern: str) -> bool:
    proc = subprocess.run(["grep", "-E", "-e", pattern, "/dev/null"], capture_output=True, check=False)
    return proc.returncode in (0, 1)


def grep_seconds(args: List[str], text_path: str, runs: int) -> float:
    return best_of(
        runs,
        lambda: subprocess.run(
            ["grep", *args, text_path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        ),
    )


def slowest(text: str, sigs: SignatureSet) -> List[Tuple[float, str]]:
    """(seconds, id) of every signature explain tries on ``text``, slowest first."""
    plan = _plan_of(sigs.signatures)
    prep = Prepared(text)
    windows = anchor_windows(text, plan.reach, prep, plan.anchors)
    out = []
    for i in sorted({i for a, w in windows.items() if w for i in plan.anchored[a]}):
        sig = sigs.signatures[i]
        out.append((best_of(3, lambda s=sig: _matches(s, text, windows, prep)), sig.id))  # type: ignore[misc]
    return sorted(out, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    sigs = load_signatures()
    text = build_log(args.lines)
    # the corpus read to build the log is garbage now: collected here, not inside the timings
    # (a user's explain reads no corpus)
    gc.collect()
    print(f"log: {text.count(chr(10))} lines, {len(text) / 1e6:.2f} MB, {len(sigs.signatures)} signatures")

    t_match = best_of(args.runs, lambda: match_text(text, sigs))
    t_full = best_of(args.runs, lambda: render_explain(diagnose_text(text, sigs=sigs)))
    t_naive = best_of(args.runs, lambda: [list(s.pattern.finditer(text)) for s in sigs.signatures])
    found = diagnose_text(text, sigs=sigs).shown
    rows: List[Tuple[str, float]] = [
        ("dldoctor match", t_match),
        ("dldoctor full", t_full),
        ("python naive", t_naive),
    ]
    if shutil.which("grep"):
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp, "log.txt")
            log.write_text(text, encoding="utf-8")
            written = (without_first_chars(s.pattern.pattern) for s in sigs.signatures)
            eres = [e for e in map(to_ere, written) if e and grep_accepts(e)]
            Path(tmp, "ere").write_text("\n".join(eres) + "\n", encoding="utf-8")
            anchors = sorted({a for s in sigs.signatures for a in s.anchors})
            Path(tmp, "fixed").write_text("\n".join(anchors) + "\n", encoding="utf-8")
            rows.append(
                (
                    f"grep -E ({len(eres)} patterns)",
                    grep_seconds(["-E", "-i", "-c", "-f", str(Path(tmp, "ere"))], str(log), args.runs),
                )
            )
            rows.append(
                (
                    f"grep -F anchors ({len(anchors)})",
                    grep_seconds(["-F", "-i", "-c", "-f", str(Path(tmp, "fixed"))], str(log), args.runs),
                )
            )
    print(f"{'what':<28} {'ms':>9} {'vs dldoctor match':>18}")
    for name, secs in rows:
        print(f"{name:<28} {secs * 1000:>9.2f} {secs / t_match:>17.1f}x")
    print(f"candidates found: {len(found)}; budget: matching well under 100 ms -> {'OK' if t_match < 0.1 else 'OVER'}")
    print("slowest signatures on this log (regex time in their anchor windows; a new one here")
    print("usually lacks a literal its matches need, or starts with a repeat that can begin anywhere):")
    for secs, sid in slowest(text, sigs)[:5]:
        print(f"  {secs * 1000:6.2f} ms  {sid}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
