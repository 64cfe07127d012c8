"""What explain shows for a text of a test's own writing, and the two claims the mechanism
tests make of it (one place, so every round of rules is held to the same assertion)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from dldoctor.explainer import diagnose_text, facts_from_mapping


def shown_slugs(text: str, **facts: str) -> List[str]:
    return [c.slug for c in diagnose_text(text, facts=facts_from_mapping(facts) if facts else None).shown]


def case_ids(cases: Sequence[Tuple[str, str]]) -> List[str]:
    """pytest ids for (text, slug) cases: the slug and its position."""
    return [slug + str(i) for i, (_, slug) in enumerate(cases)]


def assert_named_first(text: str, slug: str) -> None:
    ranked = shown_slugs(text)
    assert ranked and ranked[0] == slug, ranked[:3]


def assert_not_named_first(text: str, slug: str) -> None:
    ranked = shown_slugs(text)
    assert not ranked or ranked[0] != slug, ranked[:3]
