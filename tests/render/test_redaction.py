"""Nothing leaks: secrets redacted and home shown as ``~`` in every output of every command.

Two layers: the shared pattern table itself (every secret shape, quiet on text that holds
none), and the real CLI, run with HOME set to a non-ASCII folder and to a symlink, over a
real venv inside that home whose fake ``torch`` fails with credentials in its message.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Sequence, Tuple
from urllib.parse import quote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dldoctor import conditions
from dldoctor.docs import render_page
from dldoctor.redact import REDACTED, home_forms, redact_home, redact_output, redact_secrets, secret_table

from ..conftest import make_venv, site_packages, venv_python

PASSWORD = "pa55@w0rd"  # an unencoded @ inside the password
TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"
GHP = "ghp_" + "Z9y8X7w6V5u4" * 3
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig"
PEM_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"

# (where it appears, the secret that must vanish, what must stay)
CASES: List[Tuple[str, str, str]] = [
    (f"pip from https://{GHP}@github.com/org/repo.git", GHP, "@github.com/org/repo.git"),
    ("index https://glpat-AbCdEfGhIjKlMnOpQrSt@gitlab.example/simple", "glpat-AbCdEfGhIjKlMnOpQrSt", "gitlab.example"),
    ("https://oauthtokenvalue123@host/x", "oauthtokenvalue123", "@host/x"),
    (f"https://alice:{PASSWORD}@models.example.com/w.bin", PASSWORD, "https://alice:"),
    (f"Authorization: Bearer {JWT}", JWT, "Authorization: Bearer "),
    (f"cookie session={JWT}", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "cookie"),
    ("token eyJ0eXAiOiJKV1QifQ.eyJpc3MiOiJqb2UifQ.dBjftJeZ4CVP", "dBjftJeZ4CVP", "token"),
    ("export GPG_PASSPHRASE=correct-horse-battery", "correct-horse-battery", "GPG_PASSPHRASE="),
    ("MATLAB_LICENSE_KEY=27000-ABCD-1234", "27000-ABCD-1234", "MATLAB_LICENSE_KEY="),
    ("db pass=hunter2 user=bob", "hunter2", "user=bob"),
    ('{"secret_key": "s3cr3t value", "region": "eu"}', "s3cr3t value", '"region": "eu"'),
    ("{\\\"secret_key\\\": \\\"escaped-secret\\\"}", "escaped-secret", "secret_key"),
    ("password: 'quoted secret'", "quoted secret", "password: '"),
    ("api_key=abcdef0123456789&format=json", "abcdef0123456789", "&format=json"),
    ("wandb login with access_token:xyz.987-654", "xyz.987-654", "wandb login"),
    (f"HF token {TOKEN} expired", TOKEN, "expired"),
    (f"GitHub {GHP} and github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_11ABCDEFG", "GitHub"),
    ("openai sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx", "openai"),
    ("aws AKIAIOSFODNN7EXAMPLE in use", "AKIAIOSFODNN7EXAMPLE", "in use"),
    ("slack xoxb-123456789012-abcdefghijkl", "xoxb-123456789012", "slack"),
    ("slack xoxp-1234-5678-abcdefabcdef", "xoxp-1234", "slack"),
    ("gitlab glpat-xxxxxxxxxxxxxxxxxxxx1 ok", "glpat-xxxxxxxxxxxxxxxxxxxx1", "ok"),
    ("twine pypi-AgEIcHlwaS5vcmcCJGFiY2RlZjEyLTM0NTYtNzg5MC1hYmNk", "AgEIcHlwaS5vcmc", "twine"),
    ("npm npm_abcdefghijklmnopqrstuvwxyz0123456789 done", "npm_abcdefghijklmnop", "done"),
    ("key AIzaSyA1234567890abcdefghijklmnopqrstu", "AIzaSyA1234567890", "key"),
    ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc", "stripe"),
    ("Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "YWxhZGRpbjpvcGVuc2VzYW1l", "Authorization: Basic "),
    (f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----\nafter", PEM_BODY, "after"),
    (f"-----BEGIN OPENSSH PRIVATE KEY-----\\n{PEM_BODY}\\n-----END OPENSSH PRIVATE KEY-----", PEM_BODY, ""),
    (f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}", PEM_BODY, ""),  # cut off before its end line
]


@pytest.mark.parametrize(("text", "secret", "kept"), CASES)
def test_every_secret_shape_is_redacted(text: str, secret: str, kept: str) -> None:
    out = redact_output(text)
    assert secret not in out and REDACTED in out, out
    assert kept in out, out
    assert redact_output(out) == out  # a second pass changes nothing


QUIET = [
    "[✓] 17 checks passed: path-pollution, shadowed-module",
    "max_tokens=512 tokenizers==0.19.1 keyring passed: 3",
    "pip install git+https://github.com/org/repo@v1.0",
    "ssh_config: Host github.com",
    "torch 2.13.0+cpu from https://download.pytorch.org/whl/cpu",
    "task-abcdefghijklmnopqrstuvwxyz and ask-questions-here-please-now",
    "Basic Linear Algebra Subprograms",
    "the author: someone; authors=3",
]


@pytest.mark.parametrize("text", QUIET)
def test_healthy_text_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


def test_every_condition_page_is_left_alone() -> None:
    """The pages and fixes dldoctor prints itself carry no secret: the pass must not touch them."""
    for cond in conditions.all_conditions():
        page = render_page(cond)
        assert redact_secrets(page) == page, cond.slug


ALNUM = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=36, max_size=60)
AROUND = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\\"), max_size=30).map(
    lambda s: re.sub(r"\w$", " ", s))


@given(body=ALNUM, prefix=st.sampled_from(["ghp_", "gho_", "hf_", "sk-", "glpat-", "xoxb-", "npm_",
                                           "github_pat_"]),
       before=AROUND, after=st.sampled_from([" ", "\n", '"', ")", ";", "'", ","]))
def test_token_shapes_vanish_whatever_surrounds_them(body: str, prefix: str, before: str, after: str) -> None:
    body = body[:36] if prefix == "npm_" else body
    out = redact_output(f"{before}{prefix}{body}{after}tail")
    assert body not in out


@given(user=st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=12),
       password=st.text(st.characters(blacklist_categories=("Cs", "Zs", "Cc"),
                                      blacklist_characters="/?#\"'<>`\\"), min_size=6, max_size=20),
       bare=st.booleans())
@example(user="0", password="00000@", bare=False)  # a password ending in '@': '@@' before the host
@example(user="u", password="@start", bare=True)
def test_url_credentials_vanish_even_with_at_signs_in_them(user: str, password: str, bare: bool) -> None:
    userinfo = password if bare else f"{user}:{password}"
    out = redact_output(f"fetch https://{userinfo}@host.example/simple/x")
    assert out.startswith("fetch https://") and out.endswith("@host.example/simple/x")
    shown = out[len("fetch https://"):out.rindex("@host.example")]
    assert shown.endswith(REDACTED)  # at most a user name before the first ':' is kept
    assert shown[:-len(REDACTED)] in ("", userinfo.split(":", 1)[0] + ":")


def test_the_collector_receives_the_same_table() -> None:
    table = secret_table()
    assert table["values"] and all(isinstance(p, str) for p in table["values"])
    for pattern in [*table["names"], *table["values"]]:
        re.compile(pattern)


# Home folders -------------------------------------------------------------------------------


@given(name=st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\\0"),
                    min_size=1, max_size=12).filter(lambda s: s not in (".", "..") and s.strip() == s))
def test_home_is_tilde_in_every_escaping(name: str) -> None:
    home = f"/home/{name}"
    for form in (home, json.dumps(home)[1:-1], ascii(home)[1:-1], quote(home)):
        out = redact_home(f"at {form}/proj/x.py and \"{form}\"", [home])
        assert form not in out.replace("~", ""), out
        assert out == 'at ~/proj/x.py and "~"'


def test_home_is_not_found_inside_other_paths() -> None:
    assert redact_home("/tmp/x/root/y /root2/z /rooted", ["/root"]) == "/tmp/x/root/y /root2/z /rooted"
    assert redact_home("file:///root/x.py /root", ["/root"]) == "file://~/x.py ~"


def test_symlinked_home_covers_its_real_path(tmp_path: Path) -> None:
    real = tmp_path / "real-home"
    real.mkdir()
    link = tmp_path / "link-home"
    link.symlink_to(real)
    assert str(real) in home_forms(str(link))
    assert redact_home(f"{real}/venv and {link}/venv", [str(link)]) == "~/venv and ~/venv"


# The real CLI -------------------------------------------------------------------------------

FAILING_TORCH = f'''
raise ImportError(
    "cannot fetch https://alice:{PASSWORD}@models.example.com/w.bin "
    "(Authorization: Bearer abcdefghijklmnop1234; token {TOKEN}) from " + __file__
)
'''
SECRET_ENV = {
    "PIP_INDEX_URL": f"https://{GHP}@pypi.example/simple",  # a bare token as the user
    "PIP_EXTRA_INDEX_URL": f"https://bob:{PASSWORD}@mirror.example/simple",
    "TORCH_SIGNING_PASSPHRASE": "correct-horse-battery",
    "CUDA_LICENSE_KEY": "27000-ABCD-1234",
    "CONDA_CHANNEL_AUTH": JWT,
}
SECRETS = [PASSWORD, TOKEN, GHP, "abcdefghijklmnop1234", "correct-horse-battery", "27000-ABCD-1234",
           "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "hunter2", PEM_BODY]


def _leaks(text: str, homes: Sequence[str]) -> List[str]:
    found = [s for s in SECRETS if s in text]
    for home in homes:
        for form in home_forms(home):
            if re.search(re.escape(form) + r"(?![\w.-])", text):
                found.append(form)
    return found


@pytest.fixture(scope="module", params=["non-ascii", "symlink"])
def home(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Path]:
    """(HOME as given, its real path), holding a venv whose torch fails with secrets, a
    pasted log, a Python file and a native library."""
    base = tmp_path_factory.mktemp("homes")
    if request.param == "non-ascii":
        given_home = real = base / "Jürgen Ødegård 测试"
        real.mkdir()
    else:
        real = base / "real-home"
        real.mkdir()
        given_home = base / "home-link"
        given_home.symlink_to(real)
    venv = make_venv(real / "venv")
    torch = site_packages(venv) / "torch"
    torch.mkdir()
    (torch / "__init__.py").write_text(FAILING_TORCH)
    (real / "error.log").write_text(
        "Traceback (most recent call last):\n"
        f'  File "{given_home}/proj/train.py", line 3, in <module>\n'
        "    import torch\n"
        f"OSError: libcudnn.so.9: cannot open shared object file: No such file or directory "
        f"(from {real}/venv with pass=hunter2 and https://{GHP}@host)\n"
        f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n-----END PRIVATE KEY-----\n", encoding="utf-8")
    (real / "proj").mkdir()
    (real / "proj" / "train.py").write_text("from multiprocessing import Pool\npool = Pool(2)\n")
    shutil.copy(subprocess.run(["gcc", "-print-file-name=libgomp.so.1"], capture_output=True, text=True,
                               check=True).stdout.strip(), real / "libgomp.so.1")
    return given_home, real


def _cli(home: Path, *args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    env = {**os.environ, **SECRET_ENV, "HOME": str(home), "PYTHONIOENCODING": encoding}
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "dldoctor", *args], capture_output=True, env=env,
                          cwd=home, timeout=600, encoding=encoding, errors="strict")


def _commands(given_home: Path, real: Path) -> Dict[str, Tuple[str, ...]]:
    python = str(venv_python(given_home / "venv"))
    real_python = str(venv_python(real / "venv"))
    out: Dict[str, Tuple[str, ...]] = {}
    for fmt in ("text", "json", "markdown"):
        out[f"check-{fmt}"] = ("check", "--python", python, "--format", fmt)
        out[f"probe-{fmt}"] = ("probe", "torch", "--no-gpu", "--python", real_python, "--format", fmt)
    out["check-real-path"] = ("check", "--python", real_python, "--format", "json")
    out["snapshot"] = ("snapshot", "--python", python)
    out["explain-text"] = ("explain", str(real / "error.log"), "--no-env")
    out["explain-json"] = ("explain", str(given_home / "error.log"), "--format", "json")
    out["deps-text"] = ("deps", str(given_home / "libgomp.so.1"))
    out["deps-json"] = ("deps", str(real / "libgomp.so.1"), "--format", "json")
    for fmt in ("text", "json", "sarif"):
        out[f"lint-{fmt}"] = ("lint", str(real / "proj"), "--format", fmt)
    return out


COMMANDS = ["check-text", "check-json", "check-markdown", "check-real-path", "probe-text", "probe-json",
            "probe-markdown", "snapshot", "explain-text", "explain-json", "deps-text", "deps-json",
            "lint-text", "lint-json", "lint-sarif"]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_secret_and_no_home_in_any_output(home: Tuple[Path, Path], command: str) -> None:
    given_home, real = home
    done = _cli(given_home, *_commands(given_home, real)[command])
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    assert _leaks(done.stdout + done.stderr, [str(given_home), str(real)]) == []
    assert "~" in done.stdout
    if command.split("-")[0] in ("check", "probe"):
        assert REDACTED in done.stdout  # the failing torch's message was shown, redacted
    if command.endswith("json") or command in ("snapshot", "lint-sarif", "check-real-path"):
        json.loads(done.stdout)


def test_snapshot_file_is_redacted_like_stdout(home: Tuple[Path, Path]) -> None:
    given_home, real = home
    out = real / "snap.json"
    done = _cli(given_home, "snapshot", "--python", str(venv_python(given_home / "venv")), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert _leaks(text, [str(given_home), str(real)]) == []
    env = json.loads(text)["env"]
    assert env["PIP_EXTRA_INDEX_URL"] == f"https://bob:{REDACTED}@mirror.example/simple"
    assert env["PIP_INDEX_URL"] == f"https://{REDACTED}@pypi.example/simple"
    assert env["TORCH_SIGNING_PASSPHRASE"] == env["CUDA_LICENSE_KEY"] == REDACTED
    assert env["CONDA_CHANNEL_AUTH"] == REDACTED


def test_error_lines_are_redacted_too(home: Tuple[Path, Path]) -> None:
    given_home, _real = home
    done = _cli(given_home, "check", "--python", str(given_home / "no-such-python"))
    assert done.returncode == 2
    assert done.stderr.startswith("dldoctor: no Python interpreter at ~/no-such-python")
