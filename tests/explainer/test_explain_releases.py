"""The release table in explain (issue 14, item 3): a text that names a listed release, or the
library / symbol its regression names, points at known-bad-release; another release does not."""

from __future__ import annotations

import pytest

from dldoctor.conditions import DataError
from dldoctor.conditions import releases as table
from dldoctor.explainer import diagnose_text, facts_from_mapping
from dldoctor.explainer.match import WORDS
from dldoctor.explainer.platform import text_machines
from dldoctor.explainer.releases import BOTH, MARK, mentioned_versions, release_matches

SHM_126 = ('OSError: [WinError 126] The specified module could not be found. Error loading '
           '"C:\\Users\\u\\AppData\\Roaming\\Python\\Python312\\site-packages\\torch\\lib\\shm.dll" '
           "or one of its dependencies.")


def _conf(report: object, slug: str) -> float:
    return next((c.confidence for c in report.candidates if c.slug == slug), 0.0)  # type: ignore[attr-defined]


@pytest.mark.parametrize("text, dist, version", [
    ("pip install torch==2.3.0", "torch", "2.3.0"),
    ("PyTorch version: 2.4.0+cu121", "torch", "2.4.0"),
    ("torch                     2.9.0", "torch", "2.9.0"),
    ("Upgrading torch from a perfectly fine 2.2.2 to 2.3.0 breaks it", "torch", "2.3.0"),
    ("onnxruntime-gpu==1.15.0", "onnxruntime", "1.15.0"),
    ("win10 64 bits / python 3.6 / itk 5.1.0", "itk", "5.1.0"),  # any distribution the table lists
    ("pip install itk-elastix==0.14.1", "itk-elastix", "0.14.1"),
])
def test_versions_are_read_from_how_people_write_them(text: str, dist: str, version: str) -> None:
    assert version in mentioned_versions(text).get(dist, set())


def test_a_distribution_the_table_does_not_list_is_not_read() -> None:
    assert "simpleitk" not in mentioned_versions("SimpleITK 2.0.2 and itk-elastix 0.14.1")
    assert "itk" not in mentioned_versions("SimpleITK 2.0.2 and itk-elastix 0.14.1")
    assert mentioned_versions("flax==0.4.1 and keras==2.10.0") == {}


def test_a_listed_release_of_another_distribution_with_a_failed_import_is_the_regression() -> None:
    text = "win10 64 bits\npython 3.6\nitk 5.1.0\n    import _ITKPyBasePython\nImportError: DLL load failed:"
    assert diagnose_text(text).candidates[0].slug == "known-bad-release"
    # an unlisted release is no regression by the table; word evidence may still point there
    # (itk's confirmed reports are mostly bad releases), as a lead labelled words, never more
    other = diagnose_text(text.replace("5.1.0", "5.0.1")).candidates
    assert all(h.signature == WORDS for c in other if c.slug == "known-bad-release" for h in c.hits)


def test_the_release_and_its_mark_make_the_regression_the_first_cause() -> None:
    report = diagnose_text(SHM_126 + "\nafter upgrading torch to 2.3.0")
    assert report.shown[0].slug == "known-bad-release"
    assert any("pytorch/pytorch/issues/125109" in h.text for h in report.shown[0].hits)


def test_the_mark_alone_is_a_lead_and_another_release_rules_it_out() -> None:
    lead = _conf(diagnose_text(SHM_126), "known-bad-release")
    assert lead > 0
    assert _conf(diagnose_text(SHM_126 + "\ntorch==2.2.2"), "known-bad-release") < lead
    # the machine's own release says the same as the text's
    facts = facts_from_mapping({"os": "windows", "torch_version": "2.2.2"})
    assert _conf(diagnose_text(SHM_126, facts=facts), "known-bad-release") < lead


def test_a_regression_is_per_platform() -> None:
    text = ("ImportError: /env/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so: "
            "undefined symbol: iJIT_NotifyEvent")
    ((entry, weight, _),) = release_matches(text, "linux")
    assert entry["dist"] == "mkl" and weight == entry["alone"] > MARK
    assert release_matches(text, "windows") == []
    assert diagnose_text(text).shown[0].slug == "known-bad-release"
    both = release_matches(SHM_126 + " torch 2.3.0", "windows")
    assert [w for _, w, _ in both] == [BOTH]


def test_every_entry_has_a_source_and_lower_case_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    for entry in table.known_bad_releases():
        assert entry["source"].startswith("https://")
        assert all(m == m.lower() for m in entry["marks"])
    bad = {"release": [{"dist": "torch", "specifier": "==1.0", "platforms": ["windows"], "symptom": "s",
                        "good": "1.1", "source": "https://x", "marks": ["Shm.dll"]}]}
    monkeypatch.setattr(table, "load_toml", lambda name: bad)
    table.known_bad_releases.cache_clear()
    try:
        with pytest.raises(DataError, match="marks"):
            table.known_bad_releases()
    finally:
        table.known_bad_releases.cache_clear()


def test_two_marks_of_one_entry_are_two_clues() -> None:
    """shm.dll and a per-user install (AppData\\Roaming\\Python) are independent clues of the
    2.3.0 regression: together they weigh more than either alone."""
    shm_only = SHM_126.replace("AppData\\Roaming\\Python\\Python312", "envs\\x\\Lib")
    ((_, one, _),) = release_matches(shm_only, "windows")
    ((_, two, _),) = release_matches(SHM_126, "windows")
    assert one < two < 1.0


def test_a_nightly_is_not_ruled_out_by_the_release_table() -> None:
    """The table lists releases; a nightly build is judged by the text, not lowered for being
    unlisted, while an unlisted release still is."""
    text = ("pip install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu128\n"
            + SHM_126.replace("AppData\\Roaming\\Python\\Python312", "envs\\x\\Lib"))
    nightly = facts_from_mapping({"os": "windows", "torch_version": "2.13.0.dev20260424+cu128"})
    release = facts_from_mapping({"os": "windows", "torch_version": "2.2.2"})
    assert _conf(diagnose_text(text, facts=nightly), "known-bad-release") > \
        _conf(diagnose_text(text, facts=release), "known-bad-release") > 0


PADDLE_SSL = "ImportError: libssl.so.1.1: cannot open shared object file: No such file or directory"


def test_one_regression_listed_for_two_distributions_is_one_clue() -> None:
    """Paddle 2.5's libssl link is one entry naming paddlepaddle and its variant paddlepaddle-gpu;
    explain counts it once, and another release of either rules it out."""
    assert [w for _, w, _ in release_matches(PADDLE_SSL, "linux")] == [MARK]
    assert diagnose_text(PADDLE_SSL + "\npip install paddlepaddle-gpu==2.5.1").shown[0].slug == "known-bad-release"
    assert release_matches(PADDLE_SSL + "\npaddlepaddle-gpu==2.6.0", "linux") == []
    assert release_matches(PADDLE_SSL, "windows") == []


def test_a_release_that_computes_wrong_is_not_claimed_for_a_failed_load() -> None:
    """torch 2.4.0 on Windows has two entries: fbgemm.dll failing to load, and wrong results on
    the CPU (load = false). A failed import beside "torch 2.4.0" is the first, never the second;
    the flood of detections, weighed with the machine's 2.4.0, cites the second."""
    from dldoctor.explainer.weigh import Facts

    load = release_matches("torch 2.4.0\nImportError: DLL load failed while importing _C", "windows")
    assert [e["load"] for e, _, _ in load] == [True]
    flood = "image 1/1 C:\\work\\bus.jpg: 640x480 31 cars, 165 trains, 428.6ms"
    top = diagnose_text(flood, facts=Facts(os="windows", torch_version="2.4.0")).shown[0]
    assert top.slug == "known-bad-release"
    assert any("wrong results" in value for _, value in top.evidence)


MKL_GOMP = ("Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible with libgomp.so.1 "
            "library.\n\tTry to import numpy first or set the threading layer accordingly.")


def test_torch_15s_mkl_clash_is_weighed_with_the_machines_release_only_beside_its_own_message() -> None:
    """torch 1.5 on Linux (pytorch/pytorch#37377, load = false): its own message on a 1.5.1 machine
    raises known-bad-release and cites the entry; on 1.6.0 it stays the OpenMP clash; a failed
    load on a 1.5.0 machine is not claimed for it."""
    from dldoctor.explainer.weigh import Facts

    listed = diagnose_text(MKL_GOMP, facts=Facts(os="linux", torch_version="1.5.1"), words=False)
    other = diagnose_text(MKL_GOMP, facts=Facts(os="linux", torch_version="1.6.0"), words=False)
    assert listed.shown[0].slug == "duplicate-openmp" and _conf(listed, "known-bad-release") > 0.5
    assert any("37377" in value for c in listed.shown if c.slug == "known-bad-release" for _, value in c.evidence)
    assert _conf(other, "known-bad-release") < 0.1
    cudnn = "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"
    load = diagnose_text(cudnn, facts=Facts(os="linux", torch_version="1.5.0"), words=False)
    assert _conf(load, "known-bad-release") == 0.0


def test_a_release_that_breaks_beside_another_package_counts_when_the_machine_has_it() -> None:
    """torch 2.3.0 breaks torchdata (its DILL_AVAILABLE mark): the machine's own 2.3.0 raises
    that regression, another torch on the machine lowers it (the table's entry is `with`
    torchdata, which listed_release leaves out for the machine's release alone)."""
    text = ("  File \"/venv/lib/python3.11/site-packages/torchdata/datapipes/iter/util/cacheholder.py\", line 24\n"
            "    from torch.utils.data.datapipes.utils.common import _check_unpickable_fn, DILL_AVAILABLE\n"
            "ImportError: cannot import name 'DILL_AVAILABLE' from 'torch.utils.data.datapipes.utils.common'")
    same = diagnose_text(text, facts=facts_from_mapping({"os": "linux", "torch_version": "2.3.0"}), words=False)
    other = diagnose_text(text, facts=facts_from_mapping({"os": "linux", "torch_version": "2.2.2"}), words=False)
    assert same.shown[0].slug == "known-bad-release"
    assert all(c.slug != "known-bad-release" for c in other.shown[:1])


def test_an_entry_limited_to_one_architecture_counts_only_where_the_text_shows_it() -> None:
    """torch 2.4.0 breaks ARMv8.0 boards (pytorch/pytorch#132032): beside a Raspberry Pi it is the
    release and its mark; an x86_64 machine's illegal instruction, or a text that names no
    architecture, is a CPU without an instruction the build uses, not that release."""
    crash = "torch==2.4.0\n>>> import torch\nIllegal instruction (core dumped)"
    pi = [(e["source"], w) for e, w, _ in release_matches("Raspberry Pi 4, aarch64\n" + crash, "linux")]
    assert ("https://github.com/pytorch/pytorch/issues/132032", BOTH) in pi
    for text in ("Ubuntu 22.04 x86_64\n" + crash, crash):
        assert all("132032" not in e["source"] for e, _, _ in release_matches(text, "linux"))
        assert diagnose_text(text).shown[0].slug == "cpu-instructions-unsupported"
    assert diagnose_text("Raspberry Pi 4, aarch64\n" + crash).shown[0].slug == "known-bad-release"


def test_an_arm_board_named_by_product_and_a_release_given_as_major_minor() -> None:
    """huggingface/lerobot#3474: "Illegal instruction ... on Arduino Uno Q", "it is imported
    pytorch==2.10": the board is 64-bit ARM (a Qualcomm QRB2210), and "==2.10" is 2.10.0 to pip
    (PEP 440 pads with zeros), the release whose aarch64 wheels need a newer ARM core."""
    text = "Getting Illegal instruction when running lerobot-calibrate\non Arduino Uno Q.\nit is imported pytorch==2.10"
    assert "aarch64" in text_machines(text)
    assert diagnose_text(text).shown[0].slug == "known-bad-release"
    # the same crash on a PC, or with the next minor release, is a CPU without an instruction
    assert diagnose_text(text.replace("Arduino Uno Q", "my desktop")).shown[0].slug == "cpu-instructions-unsupported"
    assert diagnose_text(text.replace("==2.10", "==2.11")).shown[0].slug == "cpu-instructions-unsupported"
    # prose's "torch 2.10" is a series: no entry for one patch release claims it
    assert mentioned_versions("works once pytorch 2.10 comes out") == {"torch": {"2.10"}}
    for board in ("an Ampere Altra server", "AWS Graviton3", "a Raspberry Pi 5", "the Arduino UNO Q"):
        assert "aarch64" in text_machines(f"torch on {board}"), board
    # families that also sell x86 or 32-bit ARM boards under one name are no architecture
    for board in ("ODROID-H3 (Intel Celeron N5105)", "Radxa X4", "Khadas Mind", "Orange Pi Zero", "Raspbian"):
        assert "aarch64" not in text_machines(f"torch on {board}"), board
    crash = "ODROID-H3 (Intel Celeron N5105)\n$ pip install torch==2.10.0\n>>> import torch\nIllegal instruction"
    assert diagnose_text(crash).shown[0].slug == "cpu-instructions-unsupported"
    assert text_machines("Ubuntu on my gaming PC") == frozenset()
    # a series and a string comparison are not padded: "==2.10.*" is the newest 2.10.x
    assert mentioned_versions("torch==2.10.*") == mentioned_versions("torch===2.10") == {"torch": {"2.10"}}


def test_machines_are_validated() -> None:
    entry = {"dist": "x", "specifier": "==1.0", "platforms": ["linux"], "symptom": "s", "good": "0.9",
             "source": "https://example.invalid/1"}
    assert table._validate({**entry, "machines": ["aarch64"]})["machines"] == ["aarch64"]
    for bad in (["sparc"], [], "aarch64"):
        with pytest.raises(DataError, match="machines"):
            table._validate({**entry, "machines": bad})
    assert table.on_machine({**entry, "machines": ["aarch64"]}, "arm64")
    assert not table.on_machine({**entry, "machines": ["aarch64"]}, "x86_64")
    assert not table.on_machine({**entry, "machines": ["aarch64"]}, None)
    assert table.on_machine(entry, None) and table.on_machine(entry, "AMD64")
