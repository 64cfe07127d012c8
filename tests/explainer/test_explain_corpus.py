"""Accuracy on real error texts from public threads (tests/data/explain)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Dict

import pytest

from dldoctor import conditions
from dldoctor.conditions import DataError
from dldoctor.explainer.corpus import Case, Outcome, accuracy, evaluate, load_corpus, read_case, split_for, thread_of

CORPUS = Path(__file__).resolve().parent.parent / "data" / "explain"
CASES = load_corpus(CORPUS)
TRAIN = [c for c in CASES if c.split == "train"]
KNOWN_MISSES = {ln.strip() for ln in (CORPUS / "known_misses.txt").read_text(encoding="utf-8").splitlines()
                if ln.strip() and not ln.startswith("#")}


def test_corpus_is_large_and_broad() -> None:
    assert len(CASES) >= 80
    families = {c.cause for c in CASES}
    assert len(families) >= 25
    assert {c.platform for c in CASES} == set(conditions.PLATFORMS)



def test_the_test_split_is_chosen_by_thread_not_by_judgement() -> None:
    test_threads = {thread_of(c.source) for c in CASES if c.split == "test"}
    train_threads = {thread_of(c.source) for c in CASES if c.split == "train"}
    assert not test_threads & train_threads, "one thread feeds both splits"
    threads = [thread_of(c.source) for c in CASES]
    assert len(threads) == len(set(threads)), "a thread is in the corpus twice (it would count twice)"
    assert all(split_for(t) == "test" for t in test_threads)


def test_thread_of_ignores_comment_anchors_and_queries() -> None:
    a = thread_of("https://github.com/pytorch/pytorch/issues/166628#issuecomment-123")
    assert a == thread_of("http://www.github.com/pytorch/pytorch/issues/166628/?x=1")
    assert split_for(a) == split_for("https://github.com/pytorch/pytorch/issues/166628")


def test_corpus_has_localized_windows_messages() -> None:
    text = "\n".join(c.text for c in CASES)
    for phrase in ("找不到指定的模块", "页面文件太小", "Das angegebene Modul", "não pode executar"):
        assert phrase in text


# The thresholds are a ratchet on what the rules were written on (train), measured with the
# rules alone (word evidence is built from train, so on train it would answer in-sample): they
# hold today's level (top-1 78.1%, top-3 84.6%, text only 77.4% over 4,439 cases: generations 1
# to 20 of the held-out cases included) so no change can lower it.
# (Generation 20's 16 held-out cases joined train at 50.0% / 62.5% by the rules when generation
# 21 began: that lowered the level from 78.3 / 84.7 over 4,423. Before them, its 15 train cases,
# collected in the twenty-second session, had scored 33.3% / 60.0% with the rules of the
# session's start; a twenty-fifth round of rules written on them took them to 73.3% / 86.7%,
# and the older 4,408 stayed where they were.)
# (Generation 21's 41 train cases, collected in the twenty-third session, scored 53.7% / 63.4%
# by the rules of the session's start; a twenty-sixth round and the wheel table took them to
# 78.0% / 87.8%, the older 4,439 losing none. Its 48 held-out cases then joined train at
# 62.5% / 70.8% by the rules, which set the level at 78.00 / 84.54 over 4,528, text 77.23. The
# round's last rules, written on them after that one measurement (a removed framework module, an
# extension's source naming a torch API its headers lack, FastDeploy's CUDA toolkit), gained 3:
# 78.07 / 84.61, text 77.30.)
# (Generation 22's 18 train cases, collected in the twenty-fourth session, scored 8 of 18 at top-1
# by the rules of the session's start; a twenty-seventh round took them to 12, the older 4,528
# losing none. Its 15 held-out cases then joined train at 5 of 15 by the rules; the round's last
# rules, written on them after that one measurement (a jax flag a later jax removed, syntax of a
# later Python, DirectML finding no adapter, TensorFlow on Apple Silicon without tensorflow-metal),
# gained 4 of them: 78.03 / 84.65 over 4,561, text 77.29.)
# (Generation 23's 20 train cases, collected in the twenty-fifth session, scored 11 of 20 at top-1
# by the rules of the session's start; a twenty-eighth round took them to 15, the older 4,561
# losing none. Its 23 held-out cases then joined train at 14 of 23 by the rules; the round's last
# rules, written on them after that one measurement (PyPI's torch on a Jetson, the framework
# imported first bringing the cuDNN the other finds too old, Android's "cannot locate symbol",
# pip's refusal of a wheel retold without its name) gained 4 of them and 3 older ones:
# 78.11 / 84.77 over 4,604, text 77.39. Generation 24's first 12 train cases, collected the same
# day, scored 7 of 12 by those rules; two more rules took them to 10: 78.12 / 84.77 over 4,616,
# text 77.40.)
# (Generation 24's 13 held-out cases joined train at 5 of 13 by the rules (measured once at
# c07b2fe); a twenty-ninth round, written on them after that one measurement (any package's
# relative frames ending in its missing built module, PyPI's torch placeholder with no other
# index named, "I have CUDA N" or a stated ROCm beside another major's library, "X==v and newer
# fails"), gained 6 of them and 3 older ones: 78.20 / 84.86 over 4,629, text 77.49. Generation
# 25's first 21 train cases, collected the same day, scored 16 of 21 by those rules; a thirtieth
# round (a release's wheel "appears to be broken", conda's CPU build string for pytorch beside a
# CUDA word) took them to 18: 78.24 / 84.86 over 4,650, text 77.53. Its third wave's 20 train
# cases and its 47 held-out cases (measured once at 9d0e516: 44.7% / 55.3% by the rules) then
# joined train, which set the level at 77.97 / 84.63 over 4,717, text 77.25; a thirty-first
# round written on the held-out cases after that one measurement (escaped quotes in glibc's
# version error, a __future__ feature the Python predates, "no support for X in Python 3.N", a
# program's own "Error 126 loading", two import orders with the outcome told after them) is in
# that level. Two more rules written on those held-out cases (Windows' spawned DataLoader
# workers failing to pickle the dataset or reading an empty pipe), and generation 26's first 7
# train cases with 2 rules on them (an app's own "you may be using the CPU version of
# PyTorch", a release "which has a fatal flaw"), gave 78.07 / 84.72 over 4,724, text 77.35.)
# (Generation 26's 43 held-out cases (measured once at d037ddb: 53.5% / 74.4% by the rules) and
# its 42 later train cases (18 of 42 at top-1 by the rules of the twenty-seventh session's start)
# joined train, which set the level at 77.54 / 84.32 over 4,809, text 76.82. A thirty-third round
# written on the held-out cases after that one measurement (a VM's CPU type hiding AVX, "missing
# AVX", a Jetson's illegal instruction in Chinese, an RTX 50 card where the older one worked, an
# installed package's subpackage from an unknown location, Windows' missing ordinal, PyPI's 0.0.0
# placeholder, one Python working and another failing, "I don't want CUDA", "import torch first
# and everything works", aliased imports in both orders, another package's _C never built, nvcc's
# release beside another major's library, macOS 10.x as an Intel Mac) gained 10 of them and 2 of
# the later train cases, none lost: 77.79 / 84.53, text 77.08, after a fresh-eyes review narrowed
# its first draft (no fault-handler dump, no device-side illegal instruction, the old card must
# be the one that worked, two different Pythons, a CUDA error beside "I don't want CUDA").)
# (Generation 27's first 4 train cases, collected the same day, scored 2 of 4 by those rules:
# 77.77 / 84.52 over 4,813, text 77.06.)
# (Generation 27's 48 held-out cases (measured once at 0cfb719: 64.6% / 79.2%, rules alone
# 54.2% / 58.3%) and its 39 later train cases (17 of 39 at top-1 by the rules of the
# twenty-eighth session's start) joined train after a thirty-fourth round written on them (jax
# and jaxlib one companion pair, as conditions.toml defines it, with the seven train labels that
# still said requirement-conflict corrected; an Apple-silicon Mac beside SIGILL; a GPU below
# compute capability 5.0 named beside a failure; a framework's C library the linker cannot find;
# Python 3.9's Callable typing; dyld's torch symbol wanted by another package's module; a name
# missing from triton; jax 0.2.15's gtsv2 in the release table; ARM boards by product name),
# which lost no older case: 77.63 / 84.37 over 4,900, text 76.88.)
# (Generation 28's 51 held-out cases (measured once at 6c10988: 76.5% / 88.2%, rules alone
# 70.6% / 82.4%) and its 41 train cases (31 of 41 at top-1 by the rules of the twenty-ninth
# session's start) joined train after a thirty-fifth round written on them (a THP symbol in a
# user's *_cuda module, pre-release sonames, CUDA error 222 by its number, no framework wheel
# for 32-bit ARM, SciPy's NumPy range, a framework's checkout lacking a generated name, the CPU
# build in a launcher's, Intel's and the usual check's words, Triton without a C compiler, vllm's
# unloaded ops, board and signal names beside Japanese words), which lost no older case and was
# narrowed by a fresh-eyes review (no mangled THP name, no jax or keras checkout, no wish for
# the CPU build, no 32-bit ARM where pip lists versions, SciPy's warning a lead below the error):
# 77.82 / 84.54 over 4,992, text 77.02.)
# (Generation 29's 71 train cases (collected in the thirtieth session; 35 of 71 at top-1 by the
# rules of its start, many of them Theano-era companions and GLIBC in frozen apps) joined train
# with a thirty-sixth round written on them before the held-out split was measured: a name
# missing from a found module and a failed source build as shapes of their own, aliased imports
# in both orders, the build's nvcc missing, a bus error in a container, llama.cpp's Metal
# backend under Rosetta, the user's words on the CPU build narrowed to what happened. The older
# 4,992 kept their level (3,885 -> 3,883 at top-1, 4,220 -> 4,226 at top-3); the whole set is at
# 77.54 / 84.48 over 5,063, text 76.81, the floor lowered by the harder new cases.)
# (Generation 29's 51 held-out cases (measured once at fca8ed3: 58.8% / 78.4%, rules alone
# 51.0% / 58.8%) joined train after a thirty-seventh round written on them (the user's words on
# CUDA_HOME, a project's compiled module missing after a source build, the linker's words in a
# title, no CUDA runtime beside a versioned toolkit, the pair's compatibility in words, a
# companion's own library, tensorflow-gpu swapped by an installer, OpenCV's cuDNN check, Theano's
# pooling API, torch 2.0.x's torch.mps and blis 0.9.x in the release table), narrowed by a
# fresh-eyes review, which lost no older case: 77.71 / 84.45 over 5,114, text 76.98.)
# (Generation 30's 61 train cases (collected in the thirty-first session; 32 of 61 at top-1 by
# the rules of its start) joined train with a thirty-eighth round written on them before the
# held-out split was measured: ninja's failed compile step, no AVX and the GPU build option in
# a program's words, libcuda.so.1 missing in the user's words, a framework that loads in the
# shell but not in a package's install, the second of two imports wanting a newer libstdc++, and
# a family's companion beside the requirement when a found package lacks a name. The older
# 5,114 kept their level (3,975 -> 3,975 at top-1, 4,322 -> 4,326 at top-3); the new 61 are at
# 37 / 42: 77.53 / 84.41 over 5,175, text 76.81; the floor is lowered by the harder new cases.)
# (Generation 30's 60 held-out cases (measured once at 1efd75ac: 53.3% / 65.0%, rules alone
# 46.7% / 51.7%) joined train after a thirty-ninth round written on them (an Electron addon's DLL
# initialisation, an sdist lacking its own file, the user's failing release beside a working one,
# cupy 7.1.0, torch's extension builder and an unknown arch, MSVC without python3x.lib, Chainer
# without CuPy, an idle GPU, a framework's versioned C library, a library missing in the user's
# words, Node's ERR_DLOPEN_FAILED, a package failing on this Python in words, an f-string's = on
# an old Python, another Python's DLL, no arm64 build in words, StyleGAN2's JIT ops), narrowed by
# two fresh-eyes reviews, which lost no older case (5,175: 4,012 / 4,368 -> 4,016 / 4,370):
# 77.55 / 84.39 over 5,235, text 76.85.)
# (Generation 31's 35 train cases (collected in the thirty-second session; 20 / 22 of 35 by the
# rules of its start) joined train with a fortieth round written on them before the held-out
# split was measured: a dylib built for a newer macOS, an install name on a CI runner, a HIP
# entry point the driver lacks, Cython refusing a .pyx, torch 0.4's ATen_cuda, a package's Python
# and no prebuilt wheel for this Python in words, NumPy 2 named as what broke, TensorFlow killing
# the kernel on Apple Silicon, ROCm's bundled HSA runtime under WSL, cuDNN's message over two
# lines. The older 5,236 lost none and gained 1; the new 35 are at 31 / 32: 77.65 / 84.46 over
# 5,271, text 76.95.)
# (Generation 31's 43 held-out cases (measured once at f333a5fc: 51.2% / 72.1%, rules alone
# 44.2% / 55.8%) joined train after a forty-first round written on them (a system library older
# than an environment's, NumPy 1.x/2.x and a toolkit/framework incompatibility in words, a JVM
# beside a 32-bit Python, a pre-release Python beside a failed build, an old pip, Python 3.12's
# warning beside pkg_resources, a package's own library on ARM, dyld's no suitable image, a
# generated version module, a frozen app's uncollected DLLs, an invalid wheel, a container
# without the driver, torch.dtype among the attributes every release has), narrowed by two
# fresh-eyes reviews, which lost no older case (5,271: 4,093 / 4,452 -> 4,095 / 4,455): 77.72 /
# 84.59 over 5,314, text 77.02.)
# (Generations 32 (7 held-out, measured once at a7f60de3: 71.4% / 85.7%) and 33 (17 train, 17
# held-out, measured once at f907ebfd: 58.8% / 70.6%) joined train with rounds 42 to 44 (a module
# moved to a package, an installed version not the requirement, Chainer beside another CuPy,
# Keras naming the TensorFlow it needs, conda's own command, an extension importing a torch name
# its torch lacks, a private torch module missing, no NVIDIA driver beside the ROCm index, the
# VC++ runtime named loosely), narrowed by four fresh-eyes reviews: 77.69 / 84.55 over 5,366,
# text 77.00; the floor is lowered by the harder new cases, 11 of 41 not in top 3 by the rules.)
# (Generation 34 (11 train, 19 held-out, measured once at 659a7959: 52.6% / 73.7%, rules alone
# 47.4% / 52.6%) joined train with round 45 (onnxruntime 1.16.0's providers error, an OMP #15
# cut short, the driver's PTX JIT apart from a toolkit's ptxas, a program's own minimum-driver
# check, an executable stack in the user's words), narrowed by two fresh-eyes reviews; no older
# case lost: 77.67 / 84.51 over 5,396, text 76.98; the text floor is lowered by the new cases.)
# (Generation 35 (23 train, 13 held-out, measured once at 0d135673: 76.9% / 100.0%, rules alone
# 69.2% / 92.3%) joined train with round 46 (mmdet's MMCV check cut to its first sentence, pip's
# pre-21.2 build-isolation failure), reviewed; no older case lost: 77.71 / 84.57 over 5,432,
# text 77.03.)
# (Generation 36's 45 train cases joined with round 47a (a plugin loader's "Error: 126", .NET's
# unnamed "Unable to load DLL", uv's and Poetry's resolver failures): 77.65 / 84.64 over 5,477,
# text 76.98; the text floor is lowered by the new cases, 3 of 45 not in top 3 by the rules.)
# (Generation 36's 36 held-out cases (measured once at f239ff9d: 83.3% / 83.3%, rules alone
# 80.6% / 80.6%) joined train with round 47b (a program's own "symbol lookup error", uv's missing
# local variant, a GPU variant instead of another, a compute capability below a stated minimum);
# no older case lost: 77.78 / 84.75 over 5,513, text 77.11.)
# (Generation 37 (22 train, 33 held-out, measured once at 7cc37dd1: 66.7% / 75.8%, rules alone
# 60.6% / 66.7%) joined train with round 48 (torch's dispatcher without a kernel for the backend,
# ggml's missing GPU architecture, libmamba's strict channel priority, conda's channels of a Linux
# that is not x86, conda's plan replacing a GPU build with a CPU one, a notebook running the base
# interpreter, an older release that still works), narrowed by two reviews; no older case lost:
# 77.78 / 84.77 over 5,568, text 77.12.)
# The target (90% / 98% on reports never seen) is not reached yet. The frozen test
# split is measured and reported (bench/explain_accuracy.py), never asserted: a red test
# would be an invitation to read its misses.
@lru_cache(maxsize=None)
def _with_facts() -> Dict[str, Outcome]:
    """Every train case ranked by the rules with its machine facts, once for the ratchet and the
    per-case checks (the corpus grows every generation; each pass is a whole-corpus run)."""
    return {o.case.name: o for o in evaluate(TRAIN, use_facts=True, words=False)}


def test_top1_accuracy_with_machine_facts() -> None:
    top1, top3 = accuracy(list(_with_facts().values()))
    assert top1 >= 0.777
    assert top3 >= 0.847


def test_top1_accuracy_from_text_alone() -> None:
    top1, _ = accuracy(evaluate(TRAIN, use_facts=False, words=False))
    assert top1 >= 0.771


def test_known_misses_are_train_cases() -> None:
    assert {c.name for c in TRAIN} >= KNOWN_MISSES


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="known miss (tests/data/explain/known_misses.txt)"))
    if c.name in KNOWN_MISSES else c
    for c in TRAIN
], ids=lambda c: c.name)
def test_confirmed_cause_is_in_top3(case: Case) -> None:
    outcome = _with_facts()[case.name]
    assert outcome.top3, f"{case.cause} not in {outcome.ranked[:3]} ({case.source})"


@pytest.mark.parametrize(
    "body, message",
    [
        ('source = "http://x"\nplatform = "linux"\ncause = "corrupt-install"\ntext = "t"', "https"),
        (
            'source = "https://x"\nplatform = "beos"\ncause = "corrupt-install"\ntext = "t"',
            "platform",
        ),
        ('source = "https://x"\nplatform = "linux"\ncause = "nope"\ntext = "t"', "unknown cause"),
        ('source = "https://x"\nplatform = "linux"\ncause = "corrupt-install"\ntext = ""', "text"),
        (
            'source = "https://x"\nplatform = "linux"\ncause = "corrupt-install"\ntext = "t"\nx = 1',
            "unknown",
        ),
        ("source = ", "Invalid"),
        # a misspelt machine fact would be ignored silently: "torch" is no fact explain weighs
        (
            'source = "https://x"\nplatform = "linux"\ncause = "corrupt-install"\ntext = "t"\n[facts]\ntorch = "2.4.0"',
            "unknown \\[facts\\] keys \\['torch'\\]",
        ),
    ],
)
def test_bad_case_files_are_rejected(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "case.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(DataError, match=message):
        read_case(path)


def test_a_thread_of_a_moved_repository_is_a_duplicate_for_the_collector() -> None:
    """tools/corpus_place.py: a repository moved to another owner keeps its issue numbers, so
    the same thread under the old owner's name must not enter the corpus a second time (and
    perhaps the other split)."""
    import subprocess
    import sys

    case = next(c for c in TRAIN if c.source.startswith("https://github.com/turboderp-org/exui/issues/"))
    moved = case.source.replace("/turboderp-org/", "/turboderp/")
    fresh = "https://github.com/nobody-here/not-a-repo/issues/1"
    tool = CORPUS.parent.parent.parent / "tools" / "corpus_place.py"
    out = subprocess.run([sys.executable, str(tool), moved, fresh], capture_output=True, text=True, check=True).stdout
    lines = dict(line.split("\t") for line in out.splitlines())
    assert lines[moved].startswith("DUPLICATE")
    assert lines[fresh] in ("train", "test")
