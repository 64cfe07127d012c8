"""Hostile sources for lint: whatever the file, one line for it, in bounded time and memory.

The parser is not the only recursive reader: the analyses walk the tree recursively too, so a
tree the parser accepts (``a.b.b...`` 600 deep) used to end the whole run in a RecursionError.
Token-dense text costs ~1 KB of tree per token: 5 MB of ``[0, 0, ...]`` on one line took
minutes and GBs though it was under the bytes cap.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dldoctor.lint.flake8_plugin import Plugin
from dldoctor.lint.runner import lint_paths
from dldoctor.lint.source import MAX_TOKENS

# Nestings the parser accepts up to some depth and the analyses must survive at any depth.
NESTINGS = {
    "attribute": lambda n: "x = a" + ".b" * n,
    "binop": lambda n: "x = 1" + " + 1" * n,
    "call": lambda n: "x = f" + "()" * n,
    "subscript": lambda n: "x = y" + "[0]" * n,
    "unary": lambda n: "x = " + "-" * n + "y",
    "not": lambda n: "x = " + "not " * n + "y",
    "ifexp": lambda n: "x = 1" + " if y else 1" * n,
    "lambda": lambda n: "f = " + "lambda: " * n + "0",
    "parens": lambda n: "x = " + "(" * n + "1" + ")" * n,
    "lists": lambda n: "x = " + "[" * n + "]" * n,
    "calls-in-args": lambda n: "x = " + "g(" * n + ")" * n,
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(NESTINGS)), depth=st.integers(1, 3000))
def test_any_nesting_is_a_result_or_one_error(tmp_path: Path, kind: str, depth: int) -> None:
    path = tmp_path / "deep.py"
    path.write_text("import torch\nfrom multiprocessing import Pool\n" + NESTINGS[kind](depth) + "\n")
    result = lint_paths([str(path)])  # raised RecursionError for 600 < depth < ~3000 before
    assert len(result.errors) <= 1 and result.files == 1
    if result.errors:
        assert "nested" in result.errors[0][1] or "cannot parse" in result.errors[0][1]


def test_a_shallow_file_next_to_a_deep_one_is_still_linted(tmp_path: Path) -> None:
    (tmp_path / "deep.py").write_text("x = a" + ".b" * 900 + "\n")
    (tmp_path / "pool.py").write_text("from multiprocessing import Pool\npool = Pool(2)\n")
    result = lint_paths([str(tmp_path)])
    assert [(p.endswith("deep.py"), "nested too deeply" in why) for p, why in result.errors] == [(True, True)]
    assert [f.condition.code for f in result.findings] == ["DLD026"]


def test_the_flake8_plugin_survives_a_deep_tree() -> None:
    tree = ast.parse("import torch\nx = a" + ".b" * 900 + "\n")
    assert list(Plugin(tree, "deep.py").run()) == []


def test_token_dense_text_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    dense = tmp_path / "dense.py"
    dense.write_text("x = [" + "0," * MAX_TOKENS + "]\n")  # 2 * MAX_TOKENS tokens, 300 KB
    notebook = tmp_path / "dense.ipynb"
    cells = [{"cell_type": "code", "source": "x = [" + "0," * MAX_TOKENS + "]"},
             {"cell_type": "code", "source": "from multiprocessing import Pool\nimport PyQt5\nimport torch\n"}]
    notebook.write_text(json.dumps({"cells": cells}))
    result = lint_paths([str(dense), str(notebook)])
    assert [(Path(p).name, "tokens" in why) for p, why in result.errors] == [("dense.py", True)]
    assert [(Path(p).name, "cell 1" in why and "tokens" in why) for p, why in result.warnings] == [
        ("dense.ipynb", True)]
    assert [f.condition.code for f in result.findings] == ["DLD004"]  # the notebook's other cell


def test_few_tokens_in_many_bytes_are_linted(tmp_path: Path) -> None:
    """The cap counts tokens, not characters: one 3 MB string literal is one token (and its
    line is read once: ``ast.get_source_segment`` took 16 minutes over it)."""
    path = tmp_path / "blob.py"
    path.write_text("from multiprocessing import Pool\nBLOB = '" + "a" * 3_000_000 + "'\npool = Pool(2)\n")
    result = lint_paths([str(path)])
    assert result.errors == () and [f.condition.code for f in result.findings] == ["DLD026"]


def test_a_notebook_nested_deeper_than_the_json_parser_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.ipynb"
    path.write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = lint_paths([str(path)])
    assert [why for _, why in result.errors] == ["not a notebook (invalid JSON (nested too deeply))"]


@pytest.mark.parametrize("code", [
    "x = f(a,\n      b)  # é\n",
    "s = 'é中文' + g( 1 ,\t2 )\r\ny = [\r\n  1,\r\n  2]\r\n",
    "class A:\n    def m(self):\n        return {'k': (1,\n 2)}\n",
    "z = 1\x0c\nw = 'ƒ' * 3\n",
])
def test_a_nodes_source_is_what_ast_gives(code: str) -> None:
    """The shortened source of every node is ``ast.get_source_segment``'s, on several lines,
    with non-ASCII text (UTF-8 column offsets), CRLF and form feeds."""
    from dldoctor.lint.source import segment

    for node in ast.walk(ast.parse(code)):
        if not hasattr(node, "lineno"):
            continue
        text = " ".join((ast.get_source_segment(code, node) or "...").split())
        assert segment(code, node, 40) == (text if len(text) <= 40 else text[:37] + "..."), ast.dump(node)


def test_a_big_module_of_simple_code_is_walked_to_its_end(tmp_path: Path) -> None:
    """The walk's step budget grows with the module (linear time still): after a literal of
    70,000 items the worker start is found, where a fixed budget stopped before it in silence."""
    path = tmp_path / "big.py"
    path.write_text("from multiprocessing import Pool\nx = [" + "1, " * 70_000 + "]\npool = Pool(2)\n")
    result = lint_paths([str(path)])
    assert result.errors == () and [f.condition.code for f in result.findings] == ["DLD026"]


def test_an_fstring_of_many_fields_counts_them_as_tokens(tmp_path: Path) -> None:
    """Before 3.12 an f-string is one token; its fields count as the three tokens each 3.12
    makes of them, so 60,000 fields are refused in one line instead of compiled for seconds."""
    path = tmp_path / "fields.py"
    path.write_text("x = f'" + "{1}" * 60_000 + "'\n")
    result = lint_paths([str(path)])
    assert [why for _, why in result.errors] == [f"more than {MAX_TOKENS:,} tokens (generated code?), not linted"]
