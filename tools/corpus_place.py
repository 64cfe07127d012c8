"""Where a newly collected explain-corpus case goes: its split (train or test, decided by the
hash of its source thread, never by judgement), or DUPLICATE when its thread is already in
the corpus (of this checkout, and of any other checkouts given with --also). A GitHub thread
whose repository and number are in the corpus under another owner is a DUPLICATE too: a
repository moved to an organisation (THUDM/ChatGLM-6B -> zai-org/ChatGLM-6B,
turboderp/exui -> turboderp-org/exui) keeps its issue numbers, and one thread must not feed
both splits under two names.

    python tools/corpus_place.py URL [URL ...] [--also OTHER_CHECKOUT ...]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Dict, List

from _run import run

from dldoctor.explainer.corpus import split_for, thread_of

ROOT = Path(__file__).resolve().parent.parent
_SOURCE = re.compile(r'^source\s*=\s*"([^"]+)"', re.MULTILINE)
_GITHUB = re.compile(r"https?://github\.com/[^/\s]+/([^/\s#?]+)/(?:issues|pull|discussions)/(\d+)", re.IGNORECASE)


def moved_key(url: str) -> str:
    """A GitHub thread without its owner ("chatglm-6b#123"), or "" for other sources."""
    m = _GITHUB.match(url)
    return f"{m.group(1).lower()}#{m.group(2)}" if m else ""


def known_threads(roots: List[Path]) -> Dict[str, Path]:
    """thread -> the case file that cites it, over every split of every checkout given."""
    seen: Dict[str, Path] = {}
    for root in roots:
        for case in sorted((root / "tests" / "data" / "explain").glob("*/*.toml")):
            try:
                text = case.read_text(encoding="utf-8", errors="replace")
            except OSError:  # another collector's worktree removed while it is read
                continue
            m = _SOURCE.search(text)
            if m:
                for key in (thread_of(m.group(1)), moved_key(m.group(1))):
                    if key:
                        seen.setdefault(key, case)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--also", nargs="*", default=[], type=Path, metavar="CHECKOUT",
                        help="other checkouts (a collector's worktree) whose cases count too")
    args = parser.parse_args()
    seen = known_threads([ROOT, *args.also])
    for url in args.urls:
        where = next((seen[k] for k in (thread_of(url), moved_key(url)) if k in seen), None)
        print(f"{url}\t" + (f"DUPLICATE ({where})" if where else split_for(url)))
    return 0


if __name__ == "__main__":
    run(main, __file__)
