"""The main-guard interpreter on inputs no corpus script has: hostile and degenerate code.

Each must end quickly with a definite answer (the corpus test measures the rule's accuracy).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List

from dldoctor.lint import lint_paths


def lines(tmp_path: Path, text: str) -> List[int]:
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    result = lint_paths([str(path)], select=["DLD026"])
    assert result.errors == ()
    return [f.line for f in result.findings]


def test_mutual_recursion_ends(tmp_path: Path) -> None:
    text = "from multiprocessing import Pool\ndef a(n):\n    return b(n)\ndef b(n):\n    a(n)\n    Pool(2)\na(1)\n"
    assert lines(tmp_path, text) == [7]


def test_huge_arithmetic_is_not_computed(tmp_path: Path) -> None:
    text = (
        "from torch.utils.data import DataLoader\nX = 'a' * 10**11\nN = 10**10 ** 10\n"
        "for b in DataLoader([], num_workers=len(X) * N):\n    pass\n"
    )
    start = time.monotonic()
    assert lines(tmp_path, text) == [4]  # unresolved, so reported, and fast
    assert time.monotonic() - start < 5


def test_many_calls_stay_bounded(tmp_path: Path) -> None:
    """4**12 paths through the call tree: the step budget ends the walk, the start is kept."""
    body = "".join(f"def f{i}():\n" + f"    f{i + 1}()\n" * 4 for i in range(12))
    text = body + "def f12():\n    import multiprocessing\n    multiprocessing.Pool(2)\nf0()\n"
    start = time.monotonic()
    assert lines(tmp_path, text) == [text.count("\n")]
    assert time.monotonic() - start < 30


def test_unresolved_count_says_so(tmp_path: Path) -> None:
    path = tmp_path / "s.py"
    path.write_text(
        "import yaml\nfrom torch.utils.data import DataLoader\ncfg = yaml.safe_load(open('c'))\n"
        "for b in DataLoader([], num_workers=cfg['workers']):\n    pass\n",
        encoding="utf-8",
    )
    (finding,) = lint_paths([str(path)], select=["DLD026"]).findings
    assert "unresolved" in finding.message
    assert any(e.label == "unresolved" for e in finding.evidence)


def test_call_path_is_evidence(tmp_path: Path) -> None:
    path = tmp_path / "s.py"
    path.write_text(
        "import multiprocessing as mp\ndef inner():\n    mp.Pool(2)\ndef outer():\n    inner()\nouter()\n",
        encoding="utf-8",
    )
    (finding,) = lint_paths([str(path)], select=["DLD026"]).findings
    assert finding.line == 6
    assert ("call path", "outer() line 6 > inner() line 5") in [(e.label, e.value) for e in finding.evidence]
