"""Benchmark: `explain` matching on hostile texts, per signature, as seconds per MiB.

A pasted text can be 32 MiB of anything. For every signature this builds texts that make
its regex work hardest: the beginnings of its real matches in the corpus repeated, its
anchors repeated densely (so windows cover everything), each literal piece of its pattern
followed by long runs of the characters its repeats accept, and runs of delimiters. Every
text is matched by the whole matcher (all signatures, as explain runs); printed: the worst
texts, the seconds they would take at 32 MiB (matching is linear, so that is a
multiplication, checked by one run at 4x the size; an upper bound, since a regex reads at
most ``match.SCAN_BUDGET`` characters of its windows), peak memory, and the 10,000-line
log's time from bench_explain for scale.

    python bench/bench_explain_hostile.py [--mib 1] [--top 12]
"""

from __future__ import annotations

import argparse
import functools
import time
import tracemalloc
from pathlib import Path
from typing import Any, Iterator, List, Tuple

from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.literals import SRE
from dldoctor.explainer.match import find_hits
from dldoctor.explainer.pins import findings
from dldoctor.explainer.signatures import Signature, load_signatures
from dldoctor.explainer.weigh import Facts

FILLERS = ["a", "0", "/", "\\", ".", " ", "-", "_", ":", '"', "'", "(", "\n", "é", "中", "a/", "a.", "x "]
RUNS = (1, 40, 200, 399, 1000)


def literals(sig: Signature) -> List[str]:
    """The literal pieces of a pattern (consecutive LITERAL nodes at any depth)."""
    out: List[str] = []

    def walk(parsed: Any) -> None:
        buf = ""
        for op, av in parsed:
            if op is SRE.LITERAL:
                buf += chr(av)
                continue
            if buf:
                out.append(buf)
                buf = ""
            stack = [av]
            while stack:
                item = stack.pop()
                if isinstance(item, SRE.SubPattern):
                    walk(item)
                elif isinstance(item, (list, tuple)):
                    stack.extend(item)
        if buf:
            out.append(buf)

    walk(SRE.parse(sig.pattern.pattern, sig.pattern.flags))
    return sorted({p for p in out if len(p) >= 2}, key=len, reverse=True)[:6]


CORPUS = Path(__file__).parents[1] / "tests" / "data" / "explain"
PREFIXES = (8, 16, 40)


@functools.lru_cache(maxsize=1)
def _corpus_texts() -> Tuple[str, ...]:
    return tuple(c.text for c in load_corpus(CORPUS, ("train",)))


@functools.lru_cache(maxsize=None)
def real_starts(sig: Signature) -> Tuple[str, ...]:
    """The beginnings of the signature's first real matches in the corpus (8, 16 and 40
    characters, and the whole match but its last 1 or 20).

    The literal pieces miss what a pattern's classes need around an anchor (the digits of
    ``2.1.0+cpu``); a real match's first characters have them. Repeated, a beginning starts a
    match attempt at every copy that must fail at the next one: the case where a gap that does
    not stop at its own start scans its whole length from every copy.
    """
    found: List[str] = []
    for text in _corpus_texts():
        low = text.lower()
        if not any(a in low for a in sig.anchors):
            continue
        m = sig.pattern.search(text)
        if m and m.group(0):
            whole = m.group(0)
            found += [whole[:k] for k in PREFIXES if k < len(whole) or k == PREFIXES[0]]
            found += [whole[:-k] for k in (1, 20) if len(whole) > max(PREFIXES) + k]  # all but its end
        if len(found) >= 2 * (len(PREFIXES) + 2):
            break
    return tuple(dict.fromkeys(found))


def texts(sig: Signature, size: int) -> Iterator[Tuple[str, str]]:
    """(description, text of about ``size`` characters) built to stress ``sig``."""
    def fill(unit: str) -> str:
        return (unit * (size // max(1, len(unit)) + 1))[:size]

    for start in real_starts(sig):
        yield f"real start {start!r} + newline repeated", fill(start + "\n")
        yield f"real start {start!r} + space repeated", fill(start + " ")
    for anchor in sig.anchors:
        yield f"{anchor!r} repeated", fill(anchor)
        yield f"{anchor!r} + space repeated", fill(anchor + " ")
        for piece in literals(sig)[:3]:
            for ch in FILLERS:
                for k in RUNS:
                    yield f"{piece[:20]!r} + {ch!r}x{k} + {anchor!r}", fill(piece + ch * k + anchor)
                    yield f"{ch!r}x{k} + {piece[:20]!r} + {anchor!r}", fill(ch * k + piece + anchor)


def seconds(text: str) -> float:
    sigs = load_signatures()
    t0 = time.perf_counter()
    find_hits(text, sigs)
    return time.perf_counter() - t0


#: texts for the wheel-table step (dldoctor.explainer.pins), which reads a failed pin and the
#: Python and platform around it outside the signatures: one pin, then filler its regexes read
PIN = "ERROR: No matching distribution found for torch==1.9.1\n"
PIN_FILLERS = ("python on with using running Python 3.1\n", "Using Python lib/python lib/pythonx \n",
               "ERROR: Could not find a version that satisfies the requirement torch==1.9.1 (from versions: "
               + ", ".join(f"1.{i}.0" for i in range(900)) + ")\n", "satisfies the requirement torch" * 3 + "\n")


def pin_seconds(size: int) -> List[Tuple[float, str]]:
    """(seconds, filler) of the wheel-table step on each pin text of ``size`` characters."""
    out = []
    for filler in PIN_FILLERS:
        text = PIN + filler * (size // len(filler))
        t0 = time.perf_counter()
        list(findings(text, Facts()))
        out.append((time.perf_counter() - t0, filler[:40]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mib", type=float, default=0.25, help="size of each hostile text")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    size = int(args.mib * (1 << 20))
    sigs = load_signatures()
    worst: List[Tuple[float, str, str]] = []
    seen = set()
    t_all = time.perf_counter()
    count = 0
    for sig in sigs.signatures:
        for what, text in texts(sig, size):
            if what in seen:
                continue
            seen.add(what)
            count += 1
            per_mib = seconds(text) / args.mib
            worst.append((per_mib, sig.id, what))
    worst.sort(reverse=True)
    print(f"{count} hostile texts of {args.mib} MiB, {len(sigs.signatures)} signatures, "
          f"{time.perf_counter() - t_all:.0f} s in all")
    print(f"{'s/MiB':>7} {'at 32 MiB':>10}  signature / text")
    for per_mib, sid, what in worst[: args.top]:
        print(f"{per_mib:7.3f} {per_mib * 32:9.1f}s  {sid}: {what}")
    per_mib, sid, what = worst[0]
    text = next(t for w, t in texts(next(s for s in sigs.signatures if s.id == sid), size * 4) if w == what)
    tracemalloc.start()
    big = seconds(text) / (args.mib * 4)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"worst again at {args.mib * 4} MiB: {big:.3f} s/MiB (linear: about {per_mib:.3f}); "
          f"matcher's peak allocation {peak / 2**20:.1f} MiB for a {len(text) / 2**20:.1f} MiB text")
    for spent, what in pin_seconds(size * 4):
        print(f"wheel-table step at {args.mib * 4} MiB: {spent / (args.mib * 4):.3f} s/MiB  ({what!r}...)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
