"""Word evidence (explainer/words.py): the nearest causes by the words a report shares with the
confirmed reports of each cause, as a weak, labelled lead where no rule recognises the text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dldoctor.errors import DataError
from dldoctor.explainer import FALLBACK_NOTE, diagnose_text
from dldoctor.explainer.corpus import load_corpus
from dldoctor.explainer.match import WORDS, is_fallback
from dldoctor.explainer.words import (
    CAP,
    TABLE,
    WINDOW,
    load_table,
    nearest,
    parse_table,
    reports_failure,
    tokens,
    word_candidates,
)
from dldoctor.explainer.words_table import build_table, dump_table, tfidf

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "dldoctor" / "conditions" / TABLE


def test_the_shipped_table_is_the_one_the_train_split_gives() -> None:
    """Rebuilt from train alone (never the test split): after a train change, run
    `python tools/build_word_table.py`."""
    train = load_corpus(ROOT / "tests" / "data" / "explain", ("train",))
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    built = build_table([(c.name, c.cause, c.text) for c in train], shipped["source"])
    assert shipped["cases"] == len(train) and shipped["digest"] == built["digest"], "rebuild the word table"
    assert json.loads(dump_table(built)) == shipped


def test_a_failure_no_rule_knows_gets_the_nearest_causes_labelled_as_words() -> None:
    text = ("after upgrading numpy, importing my compiled extension module fails with an error; "
            "the module was built against the old numpy")
    assert diagnose_text(text, words=False).shown == ()
    report = diagnose_text(text)
    top = report.shown[0]
    assert top.slug == "numpy-abi-mismatch" and top.confidence <= CAP
    assert is_fallback(top) and top.hits[0].signature == WORDS
    assert "numpy" in dict(top.hits[0].subject)["words"]
    assert FALLBACK_NOTE in report.notes


def test_a_recognised_mechanism_keeps_its_rank_and_words_come_after_it() -> None:
    text = "OSError: [WinError 1455] The paging file is too small for this operation to complete"
    rules = diagnose_text(text, words=False).shown
    both = diagnose_text(text).shown
    assert both[: len(rules)] == rules
    assert all(c.confidence < min(r.confidence for r in rules) for c in both[len(rules):])


@pytest.mark.parametrize("text", [
    "import torch works without errors now, thanks",
    "The installer could not be simpler: pip install tensorflow and it works",
    "How many num_workers should a DataLoader use with 8 cores?",
    "Successfully installed torch-2.3.1 torchvision-0.18.1",
    "",
])
def test_text_that_reports_no_failure_gets_no_words(text: str) -> None:
    assert not reports_failure(text)
    assert word_candidates(text) == ()


@pytest.mark.parametrize("text", [
    "It was working last week, now the webui is not launching anymore",
    "the model is not working, it stopped working after the update",
    "引擎运行出错，截图如下",
    "pytorch и pc не видят cuda",
    "La GPU no funciona con el programa",
])
def test_denied_or_past_success_and_more_languages_still_report_a_failure(text: str) -> None:
    """"not working" and "was working last week" are reports, not words of success."""
    assert reports_failure(text)


@pytest.mark.parametrize("text", [
    # a Chinese title runs into the English message: ASCII word boundaries see "Could"
    "关于搜索Could not locate zlibwapi.dll. Please make sure it is in your library path!",
    # success told first is the report's contrast, not its ending
    "It was working perfectly, but suddenly this appeared: GLIBCXX_3.4.30 not found",
    "Works perfectly on the T4 machine shape; on the P100 every CUDA call fails with cudaErrorNoKernelImageForDevice",
    # "working with" is using, not success
    "libpcl_surface.so.1.9 not found. I am working with Ubuntu 18.04 and PCL 1.9",
    # a process killed by a signal, a loader's or installer's refusal, a GPU left unused
    "docker-compose: Illegal instruction (core dumped)",
    "Segmentation fault with a prior scipy.spatial import",
    "运行housing.py，提示：非法指令（核心已转储）",
    "[BUG] undefined symbol: _ZTVN5torch3jit6MethodE",
    "rknn_toolkit2-2.2.0-cp310-cp310-manylinux_2_17_x86_64.whl is not a supported wheel on this platform.",
    "The detected CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1).",
    "torch.cuda.is_available() returns False with ROCm 5.4.3 and an RX 6800",
    "Onnxruntime not running on GPU in my python environment",
    "openai-whisper always invokes the cpu instead of the gpu",
    "Pascal isn't supported: nothing under compute capability 7.0 can be used",
    "Kernel Restarting: the kernel appears to have died",
    "Ошибка при запуске программы",
    "НЕ РАБОТАЕТ CUDA",
    "Échec de l'installation de torch",
    # a shell's or a libc's words for a crash, in several languages; a hang
    "Segmentation fault (core dumped) while fine-tuning with LoRA",
    "Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)",
    "$ python train.py\nKilled\n",
    "Speicherzugriffsfehler (Speicherabzug geschrieben)",
    "Instrucción ilegal (`core' generado)",
    "セグメンテーション違反です (コアダンプ)",
    "The program hung at startup, right after loading the model.",
    "The kernel appears to have died. It will restart automatically.",
])
def test_failure_vocabulary_beyond_exceptions_reports_a_failure(text: str) -> None:
    """What backtested held-out reports say when no exception is pasted (words.py's gate)."""
    assert reports_failure(text)


@pytest.mark.parametrize("text", [
    "Resolved 132 packages in 1.2s, no version mismatch",
    "The segfault from last week is fixed in 2.3.1; everything works now.",
    "The worker was killed at first; after raising the memory limit it works",
    "Got it working with the cu121 wheel",
    "Training uses the GPU at 95%, torch.cuda.is_available() returns True",
    # a report closed, wherever the closing word stands
    "Solved it! The error is gone after reinstalling torch with cu121.",
    "Update: solved. The problem was a missing libcudnn in LD_LIBRARY_PATH.",
    "It was failing at first, now everything is working with CUDA 12.1.",
    # denied, or another sense of the word
    "Ran the stress test for 24h: no hangs, no segfaults.",
    "Summary: 0 mismatches, 0 aborted runs.",
    "Driver check: no CUDA version mismatch found.",
    "Changelog: fix hangs in DataLoader when num_workers > 0",
    "Release notes: backward-incompatible changes are listed below",
    "The process was killed by me with Ctrl+C after the benchmark completed.",
    "Freezing layers 0-10 and training the head.",
    "Should I use the CPU instead of the GPU for small batches?",
    "assert torch.cuda.is_available() is False  # CPU CI job",
    "We don't show the progress bar in quiet mode.",
])
def test_a_failure_told_as_resolved_or_denied_is_no_report(text: str) -> None:
    assert not reports_failure(text)


@pytest.mark.parametrize("text", [
    # pip's "Successfully installed" is a step that worked, not the report's closing
    "Successfully installed with Python 3.11.7, failed with 3.12.2",
    "I was successfully training with 0.6.1; after upgrading to 0.7.0 I got 'Fail to find the dnn implementation'",
    # failures told without the words of an exception
    "I installed mxnet-cu90, but when I import the package it doesnt get recognized",
    "Pandas version mismatch with Python 3.11",
    "mmcv version incompatibility between mmpose and mmdet",
    "Robocasa requires mujoco==3.2.6, but robosuite 1.5.1 requires mujoco>=3.3.0. How to solve this conflict?",
    "nvcc fatal : Unsupported gpu architecture 'compute_89'",
    "MacOS版本在x64的mac上执行显示bad cpu type",
    "when I import torch after onnx something wrong: src/tcmalloc.cc:278] Attempt to free invalid pointer",
    "AMD pytorch version wrong: the GPU is left non-functional",
    "WARNING: miner not compiled for the gpu architecture 21. Then it mines only on CPU.",
    "InvokeAI running off CPU by default instead of GPU, how to switch?",
    "Dead kernel with python virtual environment",
    "The unet loader displays page files that are too small to complete the operation",
    "deepfacelab не будет работать: обработка работает только на CPU",
    # (a second review) a step that succeeded before the failure, a help request, a version's ".0"
    "I have successfully set up CUDA 12.1 and cuDNN 8.9 on Ubuntu 22.04, but torch.cuda.is_available() returns False.",
    "The build finished successfully, then on import: libcudart.so.11.0: cannot open shared object file",
    "How do I resolve this dependency conflict?",
    "Any idea how to fix the CUDA version mismatch?",
    "torch 2.0 incompatibility with torchvision 0.14",
    "The model runs only on the CPU even though I have an RTX 4090.",
    "Training happens only on the CPU, the GPU sits idle at 0%.",
])
def test_failures_told_in_a_users_own_words_report_a_failure(text: str) -> None:
    """Held-out reports of generations 2-30 the gate shut out (each now in train): their
    words say something failed, though no exception is pasted."""
    assert reports_failure(text)


@pytest.mark.parametrize("text", [
    "pip check: no conflicts, 0 mismatches",
    "Dependency conflict resolution finished in 2.1s",
    "Should I use CPU instead of GPU for small batches?",
    "Nothing went wrong: the job finished and the GPU is used at 95%",
    "Installation was a success.",
    # a fresh-eyes review's healthy texts and questions
    "Optional: if you do not use it, skip `pip install tensorboard`.",
    "How can I force PyTorch to run on CPU instead of GPU for debugging?",
    "Tip: set CUDA_VISIBLE_DEVICES='' to run on CPU instead of the GPU.",
    "The test suite runs only on the CPU. All 412 tests pass.",
    "## v0.4.2\n- Fix incompatibility with NumPy 2.0",
    "Pin the versions to avoid conflicting package versions.",
    "Dependencies are resolved from the lock file, conflict-free.",
    "Installing the wrong version of CUDA is the most common mistake, so check the table.",
    "How do I avoid a CUDA version mismatch when I upgrade?",
    "Validation finished: no shape mismatches, 0 dtype mismatches.",
    "Successfully got it running on the GPU! For anyone else: it was not detected because of nouveau.",
])
def test_the_widened_gate_stays_shut_on_healthy_text(text: str) -> None:
    assert not reports_failure(text)


def test_only_the_head_and_the_tail_of_a_huge_paste_are_read() -> None:
    middle = "fbgemm " * 20000
    text = "x" * (WINDOW + 10) + middle + "y" * (WINDOW + 10)
    assert "fbgemm" not in tokens(text)
    assert "fbgemm" in tokens(text[: WINDOW + 100])


def test_chinese_and_japanese_words_count_as_character_pairs() -> None:
    assert {"显卡", "卡驱", "驱动"} <= set(tokens("显卡驱动"))


def test_a_table_of_another_schema_is_refused() -> None:
    with pytest.raises(ValueError, match="schema_version"):
        parse_table({"schema_version": 99, "idf": {}, "centroids": {}})
    assert load_table().idf, "the shipped table loads"


def test_the_machines_listed_release_still_counts_when_words_proposed_it_first() -> None:
    """Word evidence never takes the place of the machine's release lead (nor hides it as
    "no rule fits")."""
    from dldoctor.explainer.weigh import Facts

    text = "ImportError: cannot import name foo from bar (fbgemm)"
    facts = Facts(os="windows", torch_version="2.4.0")
    rules = diagnose_text(text, facts=facts, words=False).shown[0]
    both = diagnose_text(text, facts=facts)
    assert both.shown[0].slug == rules.slug == "known-bad-release"
    assert both.shown[0].confidence >= rules.confidence and FALLBACK_NOTE not in both.notes


@pytest.mark.machine
def test_word_evidence_runs_on_the_oldest_supported_python(tmp_path: Path) -> None:
    """Python 3.8 (requires-python's floor) reads the table too (no importlib.resources.files)."""
    import subprocess

    from tests.conftest import find_python, pip_install

    python = find_python("3.8")
    pip_install(Path(python), "tomli", "packaging", target=tmp_path / "lib")
    code = ("from dldoctor.explainer import diagnose_text; "
            "r = diagnose_text('after upgrading numpy, importing my compiled extension fails with an error'); "
            "print(r.shown[0].hits[0].signature)")
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": f"{ROOT / 'src'}:{tmp_path / 'lib'}", "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == WORDS


@pytest.mark.parametrize("content", [
    "{not json", '{"schema_version": 2, "idf": {}}', "[1, 2]", "\xff\xfe",
    '{"schema_version": 2, "cases": 1, "idf": {"abc": 1.0}, "centroids": {}, '
    '"case_vectors": [{"case": "a", "cause": "x", "terms": {"abc": "high"}}]}',
])
def test_a_broken_shipped_table_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], content: str) -> None:
    """A broken words.json is a bug in what was shipped: one line naming it, exit 2, no traceback."""
    import dldoctor.explainer.words as words
    from dldoctor.cli import main

    (tmp_path / TABLE).write_bytes(content.encode("latin-1"))
    monkeypatch.setattr(words, "DATA_DIR", tmp_path)
    words.load_table.cache_clear()
    try:
        text = tmp_path / "error.log"
        text.write_text("ImportError: something went wrong in mylib\n", encoding="utf-8")
        assert main(["explain", str(text), "--no-env"]) == 2
    finally:
        words.load_table.cache_clear()
    err = capsys.readouterr().err
    assert TABLE in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def _centroid_ranking(text: str, cases: list) -> list:  # type: ignore[type-arg]
    """The causes by cosine to their centroid alone (word evidence before it read reports)."""
    table = parse_table(build_table(cases, "test"))
    vec = tfidf(tokens(text), table.idf, table.unknown_idf)
    score: dict = {}  # type: ignore[type-arg]
    for term, w in vec.items():
        for cause, cw in table.postings.get(term, ()):
            score[cause] = score.get(cause, 0.0) + w * cw
    return sorted(score, key=lambda c: (-score[c], c))


def test_a_near_copy_of_one_report_of_a_small_cause_finds_that_cause() -> None:
    """A small cause whose reports differ has a diluted centroid, and a big cause that shares
    each word with some of its reports has a nearer one; the report the text copies still
    decides."""
    noise = ["amber", "basil", "cedar", "dune", "ember", "fern", "gale", "heath", "iris", "jade", "koala", "lynx"]
    words = ["zebra", "yak", "xenon", "walrus"]
    cases = [("small-1", "small-cause", "zebra yak xenon walrus"),
             ("small-2", "small-cause", "kiwi lemon mango nectar"),
             ("small-3", "small-cause", "kiwi lemon mango nectar olive")]
    cases += [(f"big-{j}", "big-cause", f"{words[j % 4]} {noise[j]} {noise[(j + 1) % 12]}") for j in range(12)]
    text = "walrus xenon yak zebra"
    assert _centroid_ranking(text, cases)[0] == "big-cause", "the centroids alone prefer the big cause"
    near = nearest(text, parse_table(build_table(cases, "test")))
    assert [c for c, _, _ in near] == ["small-cause", "big-cause"]
    assert set(near[0][2]) == set(words)


def test_a_cause_found_only_by_a_report_shows_the_words_it_shares_with_it() -> None:
    raw = {"schema_version": 2, "cases": 2, "idf": {"fbgemm": 3.0, "winerror": 3.0},
           "centroids": {"dll-missing": {"winerror": 1.0}},
           "case_vectors": [{"case": "a", "cause": "dll-missing", "terms": {"winerror": 1.0}},
                            {"case": "b", "cause": "bad-wheel", "terms": {"fbgemm": 1.0}}]}
    near = nearest("fbgemm fbgemm", parse_table(raw))
    assert near == [("bad-wheel", pytest.approx(0.5 / 3), ("fbgemm",))]


def _tiny_table() -> dict:  # type: ignore[type-arg]
    return {"schema_version": 2, "cases": 2, "idf": {"cudnn": 2.0, "fbgemm": 3.0},
            "centroids": {"bad-wheel": {"fbgemm": 1.0}},
            "case_vectors": [{"case": "a", "cause": "bad-wheel", "terms": {"fbgemm": 0.8, "cudnn": 0.6}},
                             {"case": "b", "cause": "bad-wheel", "terms": {}}]}


@pytest.mark.parametrize("entry", [
    ["bad-wheel", {"fbgemm": 1.0}],  # not an object
    {"case": "a", "terms": {"fbgemm": 1.0}},  # no cause
    {"case": "a", "cause": 7, "terms": {"fbgemm": 1.0}},  # a cause that is no name
    {"case": "a", "cause": "bad-wheel", "terms": ["fbgemm"]},  # terms that are no object
    {"case": "a", "cause": "bad-wheel", "terms": {"fbgemm": "high"}},  # a weight that is no number
    {"case": "a", "cause": "bad-wheel", "terms": {"fbgemm": 1.5}},  # a weight out of (0, 1]
    {"case": "a", "cause": "bad-wheel", "terms": {"fbgemm": -0.2, "cudnn": 0.9}},
    {"case": "a", "cause": "bad-wheel", "terms": {"xformers": 1.0}},  # a term without idf
])
def test_a_malformed_case_vector_is_refused(entry: object) -> None:
    raw = _tiny_table()
    assert parse_table(raw).case_causes == ("bad-wheel", "bad-wheel"), "the well-formed table loads"
    raw["case_vectors"][0] = entry
    with pytest.raises(DataError, match="malformed"):
        parse_table(raw)


@pytest.mark.parametrize("vectors", [None, {"a": {}}, [{"case": "a", "cause": "bad-wheel", "terms": {}}]])
def test_case_vectors_that_are_not_one_per_train_report_are_refused(vectors: object) -> None:
    raw = _tiny_table()
    raw["case_vectors"] = vectors
    with pytest.raises(DataError, match="malformed"):
        parse_table(raw)
