"""Layers import downwards only (the table: dldoctor/dev/layers.py). The checker is proven
on a planted tree: every way of writing an import counts."""

from __future__ import annotations

from pathlib import Path

from dldoctor.dev.layers import LAYERS, layer_of, violations


def test_no_module_imports_from_a_higher_layer() -> None:
    found = violations()
    assert found == [], "\n".join(map(str, found))


def test_every_layer_prefix_names_a_real_module() -> None:
    src = Path(__file__).resolve().parents[1] / "src"
    for _, prefixes in LAYERS:
        for prefix in prefixes:
            rel = src.joinpath(*prefix.split("."))
            assert rel.with_suffix(".py").is_file() or (rel / "__init__.py").is_file(), prefix


def test_layer_lookup_takes_the_longest_prefix() -> None:
    assert layer_of("dldoctor.checks.native") == layer_of("dldoctor.checks")
    assert layer_of("dldoctor") == layer_of("dldoctor.cli")
    assert layer_of("dldoctor.conditionsx") is None


def _plant(root: Path, files: dict) -> Path:  # type: ignore[type-arg]
    pkg = root / "dldoctor"
    for rel, text in {"__init__.py": "", "model.py": "", "render/__init__.py": "", "conditions/__init__.py": "",
                      "snapshot/__init__.py": "", "snapshot/collector.py": "", **files}.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text)
    return pkg


def test_planted_violations_are_all_found(tmp_path: Path) -> None:
    pkg = _plant(tmp_path, {
        "model.py": "from dldoctor import __version__\n",  # the package face, from core
        "conditions/x.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                            "    from dldoctor.render import text\n"),
        "conditions/y.py": "def f():\n    import dldoctor.snapshot\n",
        "snapshot/z.py": "from ..render import json\n",
        "snapshot/w.py": "import importlib\nimportlib.import_module('dldoctor.render')\n",
        "snapshot/collector.py": "from dldoctor import model\n",
        "render/ok.py": "from dldoctor import conditions\nfrom dldoctor.snapshot import z\n",
        "nowhere.py": "",
    })
    got = sorted((v.module, v.imported) for v in violations(pkg))
    assert got == [
        ("dldoctor.conditions.x", "dldoctor.render"),
        ("dldoctor.conditions.y", "dldoctor.snapshot"),
        ("dldoctor.model", "dldoctor"),
        ("dldoctor.nowhere", "-"),
        ("dldoctor.snapshot.collector", "dldoctor.model"),
        ("dldoctor.snapshot.w", "dldoctor.render"),
        ("dldoctor.snapshot.z", "dldoctor.render"),
    ]


MAX_LINES = 400
# stdlib-only scripts run as one source text: the collector in the target interpreter, the
# supervisor by `python -I -S -c` (each must be a single file)
BIG_ON_PURPOSE = {"snapshot/collector.py", "supervise/supervisor.py"}


def test_modules_stay_small() -> None:
    src = Path(__file__).resolve().parents[1] / "src" / "dldoctor"
    big = {str(p.relative_to(src)): n for p in src.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert set(big) <= BIG_ON_PURPOSE, f"split these modules by job: {big}"
