"""The slugs explain shows for a text of a test's own writing, with optional machine facts."""

from __future__ import annotations

from typing import List

from dldoctor.explainer import diagnose_text, facts_from_mapping


def shown_slugs(text: str, **facts: str) -> List[str]:
    return [c.slug for c in diagnose_text(text, facts=facts_from_mapping(facts) if facts else None).shown]
