"""Template helpers for the web UI. Everything user- or package-supplied goes through format_html (escaped)."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from builder.web import markdown, presenters, vocabulary

register = template.Library()



@register.simple_tag
def cardname(names: dict[str, str]) -> str:
    """A name in the UI language with the other language's name beside it, both escaped."""
    other = names.get("other") or ""
    if not other:
        return format_html('<span class="name">{}</span>', names.get("main", ""))
    return format_html('<span class="name">{}</span> <small class="alt-name">{}</small>', names.get("main", ""), other)


@register.filter
def section_label(section: str) -> str:
    return presenters.section_label(section)


@register.filter
def vocab(value: Any, spec: str) -> str:
    """{{ weapon.damage_type|vocab:"mwda:damage_type" }}: a card field's value in words (builder.web.vocabulary)."""
    system, _sep, field = spec.partition(":")
    return vocabulary.label(system, field, value)


@register.filter
def system_name(slug: str) -> str:
    return presenters.system_name(slug)


@register.filter
def percent(value: Any) -> str:
    return f"{100 * value:.1f}%" if isinstance(value, (int, float)) else "–"


@register.inclusion_tag("partials/chart.html")
def chart(spec: dict[str, Any], chart_id: str = "") -> dict[str, Any]:
    """A Chart.js canvas fed from a json_script block, with the same numbers as a table for no-JS readers."""
    series = spec.get("series") or []
    rows = [(label, [s["data"][i] if i < len(s["data"]) else "" for s in series])
            for i, label in enumerate(spec.get("labels") or [])]
    return {"spec": spec, "chart_id": chart_id or spec.get("id") or "chart", "rows": rows, "series": series}


VISIBILITY_LABELS = {"private": _("Private"), "unlisted": _("Unlisted"), "public": _("Public")}
RUN_STATUS_LABELS = {"queued": _("Queued"), "running": _("Running"), "done": _("Done"), "failed": _("Failed"),
                     "cancelled": _("Cancelled")}


@register.filter
def format_name(slug: str | None, system: str) -> str:
    """{{ list.format|format_name:list.system.slug }}: the format's name in the UI language."""
    return presenters.format_name(slug, system)


@register.filter
def visibility_label(value: str) -> str:
    return str(VISIBILITY_LABELS.get(value, value))


@register.filter
def run_status(value: str) -> str:
    return str(RUN_STATUS_LABELS.get(value, value))


@register.filter
def inline_markdown(text: str) -> SafeString:
    """The inline Markdown of the project's docs (rules pages), rendered and sanitised by builder.web.markdown:
    bold, code, emphasis, links (http(s) and relative only), source tags such as [seed 000] as badges; raw HTML
    in the text is shown as text."""
    return markdown.inline(text)
