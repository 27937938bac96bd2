"""Template helpers of the rules pages (templates/rules.html): the format options in words and the legend of the
source badges, and the docs' texts with the page's words for the game terms (`rule_text`, builder/web/markdown.py).
"""
from __future__ import annotations

from typing import Any

from django import template

from builder import rulebook
from builder.web import markdown

register = template.Library()


@register.filter
def rule_text(text: str | None, system: str) -> str:
    """{{ item.text|rule_text:game.slug }}: a text of the docs as HTML (builder.web.markdown), its untranslated
    game terms in the page's words on an English page (rulebook.page_terms)."""
    return markdown.inline(text, rulebook.page_terms(system))


@register.filter
def format_options(options: dict[str, Any] | None, system: str) -> list[dict[str, str]]:
    """{{ f.options|format_options:game.slug }}: each option in force as rule, words and value."""
    return rulebook.format_option_rows(system, options)


@register.simple_tag
def source_legend(system: str) -> list[dict[str, str]]:
    """{% source_legend game.slug as legend %}: the badges of the page, each with its meaning."""
    return markdown.legend(system)
