"""Renderers: one per output format, each ``Report -> str``; nothing else prints."""

from __future__ import annotations

from typing import Callable, Dict

from dldoctor.model import Report

FORMATS = ("text", "json", "markdown")


def renderer(fmt: str) -> Callable[[Report], str]:
    from dldoctor.render import json as json_r
    from dldoctor.render import markdown, text

    table: Dict[str, Callable[[Report], str]] = {
        "text": text.render_text,
        "json": json_r.render_json,
        "markdown": markdown.render_markdown,
    }
    return table[fmt]
