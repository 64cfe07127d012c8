"""What explain shows for a text of a test's own writing, and the two claims the mechanism
tests make of it (one place, so every round of rules is held to the same assertion)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from dldoctor.explainer import diagnose_text, facts_from_mapping


def shown_slugs(text: str, words: bool = True, **facts: str) -> List[str]:
    report = diagnose_text(text, facts=facts_from_mapping(facts) if facts else None, words=words)
    return [c.slug for c in report.shown]


def case_ids(cases: Sequence[Tuple[str, str]]) -> List[str]:
    """pytest ids for (text, slug) cases: the slug and its position."""
    return [slug + str(i) for i, (_, slug) in enumerate(cases)]


def assert_named_first(text: str, slug: str) -> None:
    ranked = shown_slugs(text)
    assert ranked and ranked[0] == slug, ranked[:3]


def assert_not_named_first(text: str, slug: str) -> None:
    """No rule claims the look-alike (word evidence, a weak lead by shared words, may still
    name any cause: it is labelled as such and never above a rule)."""
    ranked = shown_slugs(text, words=False)
    assert not ranked or ranked[0] != slug, ranked[:3]
