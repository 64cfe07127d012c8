"""Matching text to candidates: localized messages, ranking, subjects, hostile input."""

from __future__ import annotations

from typing import Dict, List

import pytest

from dldoctor.explainer import diagnose_text
from dldoctor.explainer.match import find_hits, match_text
from dldoctor.explainer.redact import redact
from dldoctor.explainer.signatures import load_signatures

# The exact error lines of seeds 000 (Chinese) and 001 (Korean).
SEED_000 = (
    "OSError: [WinError 1114] 动态链接库(DLL)初始化例程失败。 Error loading "
    '"...\\torch\\lib\\c10.dll" or one of its dependencies.'
)
SEED_001 = (
    "OSError: [WinError 1114] DLL 초기화 루틴을 실행할 수 없습니다. Error loading "
    '"C:\\...\\torch\\lib\\c10.dll" or one of its dependencies'
)


def _subjects(text: str) -> Dict[str, str]:
    return {k: v for hits in find_hits(text, load_signatures()).values() for h in hits for k, v in h.subject}


@pytest.mark.parametrize("line", [SEED_000, SEED_001])
def test_localized_winerror_1114_matches_on_code_and_structure(line: str) -> None:
    ranked = [c.slug for c in match_text(line, load_signatures())]
    # one error, several causes: all the known ones are candidates
    for slug in (
        "missing-vc-runtime",
        "known-bad-release",
        "hybrid-graphics",
        "path-pollution",
        "import-order-conflict",
    ):
        assert slug in ranked
    assert _subjects(line)["lib"] == "c10.dll"


def test_localized_words_alone_still_match_without_the_code() -> None:
    ranked = [c.slug for c in match_text("动态链接库(DLL)初始化例程失败。", load_signatures())]
    assert ranked[0] == "missing-vc-runtime"


def test_each_candidate_has_a_distinguish_line_in_text_output() -> None:
    from dldoctor.render.text import render_explain

    sigs = load_signatures()
    text = render_explain(diagnose_text(SEED_000, sigs=sigs))
    first = text.splitlines()[0]
    assert first.startswith("DLD001 missing-vc-runtime (") and "c10.dll" in first
    assert text.count("   confirm  ") == 3


@pytest.mark.parametrize(
    "text, key, value",
    [
        (
            "ImportError: /usr/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found",
            "version",
            "GLIBCXX_3.4.30",
        ),
        (
            "OSError: /x/torchvision/_C.so: undefined symbol: _ZN3c106Device8validateEv",
            "symbol",
            "_ZN3c106Device8validateEv",
        ),
        (
            "OSError: libcudnn.so.9: cannot open shared object file: No such file",
            "lib",
            "libcudnn.so.9",
        ),
        (
            "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).",
            "version",
            "11040",
        ),
        (
            "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5.dll already initialized.",
            "other",
            "libiomp5.dll",
        ),
    ],
)
def test_subject_is_extracted(text: str, key: str, value: str) -> None:
    assert _subjects(text)[key] == value


def test_specific_signature_silences_the_generic_one() -> None:
    text = (
        "OSError: [WinError 1455] The paging file is too small for this operation to complete. "
        'Error loading "C:\\x\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.'
    )
    hits = find_hits(text, load_signatures())
    assert "winerror-1455" in hits
    assert "torch-dll-error-loading" not in hits
    assert "pagefile-localized" not in hits
    assert match_text(text, load_signatures())[0].slug == "pagefile-too-small"


def test_two_clues_for_one_cause_beat_one() -> None:
    sigs = load_signatures()
    one = {c.slug: c.confidence for c in match_text(SEED_000, sigs)}
    two = {c.slug: c.confidence for c in match_text(SEED_000 + "\ntorch==2.9.0", sigs)}
    assert two["known-bad-release"] > one["known-bad-release"]
    assert two["known-bad-release"] > two["missing-vc-runtime"]


def test_line_numbers_point_at_the_error() -> None:
    text = "noise\n" * 41 + "RuntimeError: Distributed package doesn't have NCCL built in\n"
    (cand,) = [c for c in match_text(text, load_signatures()) if c.slug == "nccl-unavailable"]
    assert cand.hits[0].line == 42


def test_nothing_known_gives_no_candidates() -> None:
    assert match_text("all good\nepoch 1 loss 0.3\n", load_signatures()) == ()


@pytest.mark.parametrize(
    "text",
    [
        "a" * 2_000_000,  # one huge line
        "[WinError 1114]" * 50_000,  # a signature prefix repeated without its tail
        "Error loading " + '"' * 200_000,  # unterminated quote for the path group
        "\x00\xff\ufffd" * 10_000,  # binary noise after lenient decoding
        "undefined symbol: " * 30_000,
    ],
)
def test_hostile_text_finishes_and_stays_bounded(text: str) -> None:
    report = diagnose_text(text)
    for cand in report.candidates:
        assert len(cand.hits) <= 3 * len(load_signatures().signatures)
        for hit in cand.hits:
            assert len(hit.text) <= 4 * 401


def test_redaction_of_secrets_and_homes() -> None:
    line = (
        "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz123456 password: hunter2 "
        "https://bob:s3cret@example.com/x Authorization: Bearer abcdefghijklmnopqrstuvwxyz "
        "/home/alice/x C:\\Users\\Bob\\y /Users/carol/z sk-abcdefghijklmnopqrstuvwx"
    )
    out = redact(line, home="/nonexistent-home")
    for secret in (
        "hf_abc",
        "hunter2",
        "s3cret",
        "abcdefghijklmnopqrstuvwxyz",
        "alice",
        "Bob",
        "carol",
        "sk-abc",
    ):
        assert secret not in out
    assert "~/x" in out and "~\\y" in out and "~/z" in out


def test_redaction_keeps_ordinary_error_text() -> None:
    lines: List[str] = [
        "RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "max_tokens=512 tokenizer_path Meta-Llama-3-8B-Instruct/tokenizer.model",
    ]
    for line in lines:
        assert redact(line, home="/nonexistent-home") == line
