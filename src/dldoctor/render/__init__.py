"""Renderers, one module per output format (text, json, markdown, lint's SARIF in lint.py): every
command's value becomes a string here; only the CLI prints it. ``renderer(fmt)`` picks the
Report renderer of check, probe and wheels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict

if TYPE_CHECKING:
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
