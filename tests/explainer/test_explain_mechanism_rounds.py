"""The claims every round of mechanism rules makes, run once over all rounds' texts.

Each round (test_explain_mechanisms*.py) holds its texts as data, ``CASES`` (text, the cause
the mechanism implies first), ``NOT_CLAIMED`` (a look-alike, a cause it must not put first)
and ``HEALTHY`` (words of success: no answer), beside the tests only that round needs."""

from __future__ import annotations

from typing import Any, List

import pytest

from . import test_explain_mechanisms as round1
from . import test_explain_mechanisms3 as round3
from . import test_explain_mechanisms4 as round4
from . import test_explain_mechanisms5 as round5
from . import test_explain_mechanisms6 as round6
from . import test_explain_mechanisms7 as round7
from . import test_explain_mechanisms8 as round8
from . import test_explain_mechanisms9 as round9
from . import test_explain_mechanisms10 as round10
from . import test_explain_mechanisms11 as round11
from . import test_explain_mechanisms12 as round12
from . import test_explain_mechanisms13 as round13
from . import test_explain_mechanisms14 as round14
from . import test_explain_mechanisms15 as round15
from . import test_explain_mechanisms16 as round16
from . import test_explain_mechanisms17 as round17
from . import test_explain_mechanisms18 as round18
from . import test_explain_mechanisms19 as round19
from . import test_explain_mechanisms20 as round20
from . import test_explain_mechanisms21 as round21
from . import test_explain_mechanisms22 as round22
from . import test_explain_mechanisms23 as round23
from . import test_explain_mechanisms24 as round24
from . import test_explain_mechanisms25 as round25
from . import test_explain_mechanisms26 as round26
from . import test_explain_mechanisms27 as round27
from . import test_explain_mechanisms28 as round28
from . import test_explain_mechanisms29 as round29
from . import test_explain_mechanisms30 as round30
from . import test_explain_mechanisms31 as round31
from . import test_explain_mechanisms32 as round32
from . import test_explain_mechanisms33 as round33
from . import test_explain_mechanisms34 as round34
from . import test_explain_mechanisms35 as round35
from . import test_explain_mechanisms36 as round36
from . import test_explain_mechanisms37 as round37
from . import test_explain_mechanisms38 as round38
from . import test_explain_mechanisms39 as round39
from . import test_explain_mechanisms40 as round40
from . import test_explain_mechanisms41 as round41
from . import test_explain_mechanisms42 as round42
from . import test_explain_mechanisms43 as round43
from . import test_explain_mechanisms44 as round44
from . import test_explain_mechanisms45 as round45
from . import test_explain_mechanisms46 as round46
from . import test_explain_mechanisms47 as round47
from . import test_explain_mechanisms48 as round48
from .ranked import assert_named_first, assert_not_named_first, case_ids, shown_slugs

ROUNDS = {
    "r1": round1, "r3": round3, "r4": round4, "r5": round5, "r6": round6, "r7": round7, "r8": round8, "r9": round9,
    "r10": round10, "r11": round11, "r12": round12, "r13": round13, "r14": round14, "r15": round15,
    "r16": round16, "r17": round17, "r18": round18, "r19": round19, "r20": round20, "r21": round21,
    "r22": round22, "r23": round23, "r24": round24, "r25": round25, "r26": round26, "r27": round27,
    "r28": round28, "r29": round29, "r30": round30, "r31": round31, "r32": round32,
    "r33": round33, "r34": round34, "r35": round35, "r36": round36, "r37": round37, "r38": round38, "r39": round39,
    "r40": round40, "r41": round41, "r42": round42, "r43": round43, "r44": round44, "r45": round45, "r46": round46,
    "r47": round47, "r48": round48,
}


def params(table: str, rules_alone: bool = False) -> List[Any]:
    """Every round's ``table`` as pytest params, each id naming its round (and cause); with
    ``rules_alone``, only the rounds that claim their rules name each cause without word evidence."""
    out = []
    for name, module in ROUNDS.items():
        if rules_alone and not getattr(module, "RULES_ALONE", False):
            continue
        rows = getattr(module, table, [])
        if rows and isinstance(rows[0], tuple):
            out += [pytest.param(*row, id=f"{name}-{i}") for row, i in zip(rows, case_ids(rows))]
        else:
            out += [pytest.param(row, id=f"{name}-{i}") for i, row in enumerate(rows)]
    return out


@pytest.mark.parametrize("text, slug", params("CASES"))
def test_the_mechanism_names_the_cause(text: str, slug: str) -> None:
    assert_named_first(text, slug)


@pytest.mark.parametrize("text, slug", params("CASES", rules_alone=True))
def test_the_rules_alone_name_the_cause(text: str, slug: str) -> None:
    """The round's rules, not word evidence, put the cause first (words found some already)."""
    ranked = shown_slugs(text, words=False)
    assert ranked[:1] == [slug], ranked[:3]


@pytest.mark.parametrize("text, slug", params("NOT_CLAIMED"))
def test_a_look_alike_is_not_claimed(text: str, slug: str) -> None:
    assert_not_named_first(text, slug)


@pytest.mark.parametrize("text", params("HEALTHY"))
def test_healthy_text_is_not_claimed(text: str) -> None:
    assert shown_slugs(text) == []

