"""Survey: run ``dldoctor lint`` over real open-source training scripts and count findings.

The scripts come from PyPI source distributions (and a few wheels) that ship example and
tool scripts. Archives are fetched from the package index pip uses (the PEP 503 simple
page, sha256-checked) into ``.cache/lint_survey/`` (gitignored); nothing is built or
installed. The ``.py`` files that mention DataLoader / multiprocessing / spawn are
extracted and linted with the real CLI (``python -m dldoctor lint --format json``); the
survey prints, per archive, how many such files there are, how many are entry scripts,
how many lack a ``__main__`` guard, and the findings per code, then the time against
``flake8 --select DLD`` over the same files (the plugin peer) as a ratio.

    python bench/lint_survey.py            # fetch (once) and survey
    python bench/lint_survey.py --list     # also print every finding, for reading by hand
"""

from __future__ import annotations

import argparse
import hashlib
import html.parser
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

INDEX = os.environ.get("DLDOCTOR_SURVEY_INDEX", "https://pypi.org/simple/")
CACHE = Path(__file__).resolve().parents[1] / ".cache" / "lint_survey"
# (project, exact file name): archives known to ship training / example / tool scripts.
ARCHIVES: Tuple[Tuple[str, str], ...] = (
    ("opacus", "opacus-1.6.0.tar.gz"),  # examples/: cifar10, mnist, imdb, dcgan ...
    ("pytorch-lightning", "pytorch-lightning-1.4.9.tar.gz"),  # pl_examples/
    ("fairseq", "fairseq-0.12.2.tar.gz"),  # fairseq_cli/, examples/
    ("accelerate", "accelerate-0.34.2.tar.gz"),  # test_utils/scripts, examples
    ("pyro-ppl", "pyro_ppl-1.9.1.tar.gz"),  # pyro/contrib/examples
    ("catalyst", "catalyst-22.4.tar.gz"),
    ("horovod", "horovod-0.28.1.tar.gz"),
    ("yolov5", "yolov5-7.0.14-py37.py38.py39.py310-none-any.whl"),  # train.py, val.py
    ("mmdet", "mmdet-3.3.0-py3-none-any.whl"),  # .mim/tools/train.py
)
INTERESTING = re.compile(rb"DataLoader\(|multiprocessing|ProcessPoolExecutor|\.spawn\(|Pool\(")
MAX_MEMBER = 2 * 1024 * 1024


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: Dict[str, str] = {}
        self._href = ""

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""

    def handle_data(self, data: str) -> None:
        if self._href:
            self.links[data.strip()] = self._href
            self._href = ""


def fetch(project: str, filename: str) -> Path:
    """Download one archive from the index (once), verifying its sha256 fragment."""
    target = CACHE / "archives" / filename
    if target.is_file():
        return target
    page_url = urllib.parse.urljoin(INDEX, f"{project}/")
    with urllib.request.urlopen(page_url, timeout=60) as resp:
        parser = _Links()
        parser.feed(resp.read().decode("utf-8", "replace"))
    href = parser.links.get(filename)
    if href is None:
        raise SystemExit(f"{filename}: not on {page_url}")
    url = urllib.parse.urljoin(page_url, href)
    with urllib.request.urlopen(url, timeout=300) as resp:
        data = resp.read()
    frag = urllib.parse.urlparse(url).fragment
    if frag.startswith("sha256=") and hashlib.sha256(data).hexdigest() != frag[7:]:
        raise SystemExit(f"{filename}: sha256 mismatch")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


def _members(archive: Path) -> List[Tuple[str, bytes]]:
    out: List[Tuple[str, bytes]] = []
    if archive.name.endswith(".whl"):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.filename.endswith(".py") and info.file_size <= MAX_MEMBER:
                    out.append((info.filename, zf.read(info)))
        return out
    with tarfile.open(archive) as tf:
        for member in tf.getmembers():
            if member.isfile() and member.name.endswith(".py") and member.size <= MAX_MEMBER:
                fh = tf.extractfile(member)
                if fh is not None:
                    out.append((member.name, fh.read()))
    return out


def extract(project: str, archive: Path) -> Path:
    """Write the interesting .py files (and the __init__.py files that make packages)."""
    root = CACHE / "src" / project
    if root.is_dir():
        return root
    for name, data in _members(archive):
        parts = Path(name).parts
        if ".." in parts or Path(name).is_absolute():
            continue
        if INTERESTING.search(data) or parts[-1] == "__init__.py":
            dest = root.joinpath(*parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
    return root


def lint(root: Path) -> Tuple[dict, float]:  # type: ignore[type-arg]
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "dldoctor", "lint", "--format", "json", str(root)],
        capture_output=True, text=True, timeout=600,
    )
    took = time.perf_counter() - start
    return json.loads(proc.stdout or "{}"), took


def flake8_time(root: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "DLD", str(root)],
        capture_output=True, timeout=600,
    )
    return time.perf_counter() - start


def _is_entry(path: Path) -> bool:
    text = path.read_text(encoding="utf-8", errors="replace")
    return bool(re.search(r"__name__\s*==\s*['\"]__main__['\"]", text)) or text.startswith("#!")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="print every finding")
    args = ap.parse_args()
    totals = {"files": 0, "entry": 0, "unguarded_scripts": 0, "findings": 0, "time": 0.0}
    by_code: Dict[str, int] = {}
    flake = 0.0
    print(f"{'archive':<50} {'files':>5} {'entry':>5} {'DLD026 files':>12}  findings")
    for project, filename in ARCHIVES:
        root = extract(project, fetch(project, filename))
        files = [p for p in root.rglob("*.py") if p.name != "__init__.py"]
        doc, took = lint(root)
        flake += flake8_time(root)
        findings = doc.get("findings", [])
        codes: Dict[str, int] = {}
        for f in findings:
            codes[f["code"]] = codes.get(f["code"], 0) + 1
            by_code[f["code"]] = by_code.get(f["code"], 0) + 1
        unguarded = {f["path"] for f in findings if f["code"] == "DLD026"}
        entry = sum(_is_entry(p) for p in files)
        totals["files"] += len(files)
        totals["entry"] += entry
        totals["unguarded_scripts"] += len(unguarded)
        totals["findings"] += len(findings)
        totals["time"] += took
        summary = ", ".join(f"{k}:{v}" for k, v in sorted(codes.items())) or "-"
        print(f"{filename:<50} {len(files):>5} {entry:>5} {len(unguarded):>12}  {summary}")
        if args.list:
            for f in findings:
                rel = os.path.relpath(f["path"], CACHE / "src")
                print(f"    {rel}:{f['line']}:{f['col']}: {f['code']} {f['message']}")
        for err in doc.get("errors", []):
            print(f"    error: {err['path']}: {err['message']}")
    print(
        f"\n{totals['files']} files using workers/multiprocessing, {totals['entry']} entry scripts,"
        f" {totals['unguarded_scripts']} files with DLD026, {totals['findings']} findings"
        f" ({', '.join(f'{k}:{v}' for k, v in sorted(by_code.items()))})"
    )
    print(f"dldoctor lint {totals['time']:.2f} s; flake8 --select DLD {flake:.2f} s;"
          f" ratio {totals['time'] / flake if flake else 0:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
