"""Template helpers of the rules pages (templates/rules.html): the format options in words and the legend of the
source badges. The Markdown itself goes through hangar's `inline_markdown` filter (builder/web/markdown.py)."""
from __future__ import annotations

from typing import Any

from django import template

from builder import rulebook
from builder.web import markdown

register = template.Library()


@register.filter
def format_options(options: dict[str, Any] | None, system: str) -> list[dict[str, str]]:
    """{{ f.options|format_options:game.slug }}: each option in force as rule, words and value."""
    return rulebook.format_option_rows(system, options)


@register.simple_tag
def source_legend(system: str) -> list[dict[str, str]]:
    """{% source_legend game.slug as legend %}: the badges of the page, each with its meaning."""
    return markdown.legend(system)
