"""An error is one line whatever the file is called: a name may hold a newline or any other
control character (POSIX allows all but NUL and /), and it is echoed in the message."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dldoctor.cli import main

CONTROL = st.characters(min_codepoint=1, max_codepoint=0x1F) | st.just("\x7f")
NAMES = st.lists(st.text(alphabet="abc.", max_size=3) | CONTROL, min_size=1, max_size=6).map("".join).filter(
    lambda s: any(ord(c) < 0x20 or c == "\x7f" for c in s))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, command=st.sampled_from(["snapshot", "deps", "lint", "diff"]))
def test_control_characters_in_a_file_name_keep_the_error_on_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, command: str) -> None:
    path = tmp_path / (name + ".json")
    path.write_bytes(b"\x00not json")
    args = {"snapshot": ["check", "--snapshot", str(path)], "deps": ["deps", str(path)],
            "lint": ["lint", str(tmp_path / (name + ".py"))], "diff": ["diff", str(path), str(path)]}[command]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and err.endswith("\n"), repr(err)
    assert "\t" in name or not any(ord(c) < 0x20 or c == "\x7f" for c in err[:-1])
