"""What explain shows for a text of a test's own writing, and the two claims the mechanism
tests make of it (one place, so every round of rules is held to the same assertion)."""

from __future__ import annotations

from typing import List, Sequence, Tuple

from dldoctor.explainer import diagnose_text, facts_from_mapping
from dldoctor.explainer.match import FALLBACK_BELOW, is_fallback


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
    """No rule claims the look-alike, and if word evidence names it first, that is a weak,
    labelled lead (words only, below the fallback threshold), never a claim."""
    ranked = shown_slugs(text, words=False)
    assert not ranked or ranked[0] != slug, ranked[:3]
    shown = diagnose_text(text).shown
    if shown and shown[0].slug == slug:
        assert is_fallback(shown[0]) and shown[0].confidence < FALLBACK_BELOW, shown[0]
