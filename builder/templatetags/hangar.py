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
    """A Chart.js canvas fed from a json_script block (static/hangar/app.js draws it), with the same numbers as a
    table for no-JS readers. Types: "bar" (`labels`, `series` [{"label", "data"}], `extra` columns shown in the
    table only, `horizontal`, `empty`: nothing to draw) and "winrate" (`labels`, `values`, `lows`, `highs`, in
    percent: one bar each with its interval as an error bar)."""
    labels = spec.get("labels") or []
    if spec.get("type") == "winrate":
        head = [_("win rate"), spec.get("interval_label") or _("%(level)s%% interval") % {"level": 95}]
        rows = [(label, [_percent_cell(_at(spec.get("values"), i)),
                         f"{_percent_cell(_at(spec.get('lows'), i))} – {_percent_cell(_at(spec.get('highs'), i))}"])
                for i, label in enumerate(labels)]
        return {"spec": spec, "chart_id": chart_id or spec.get("id") or "chart", "rows": rows, "head": head}
    columns = (spec.get("series") or []) + (spec.get("extra") or [])
    rows = [(label, [_number_cell(_at(s.get("data"), i)) for s in columns]) for i, label in enumerate(labels)]
    return {"spec": spec, "chart_id": chart_id or spec.get("id") or "chart", "rows": rows,
            "head": [s.get("label", "") for s in columns]}


def _at(values: Any, index: int) -> Any:
    return values[index] if isinstance(values, list) and index < len(values) else None


def _number_cell(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "" if value is None else str(value)
    return str(value) if isinstance(value, int) else f"{value:.2f}".rstrip("0").rstrip(".")


def _percent_cell(value: Any) -> str:
    return f"{value:.1f}%" if isinstance(value, (int, float)) and not isinstance(value, bool) else "–"


RUN_STATUS_LABELS = {"queued": _("Queued"), "running": _("Running"), "done": _("Done"), "failed": _("Failed"),
                     "cancelled": _("Cancelled")}


@register.filter
def format_name(slug: str | None, system: str) -> str:
    """{{ list.format|format_name:list.system.slug }}: the format's name in the UI language."""
    return presenters.format_name(slug, system)


@register.filter
def visibility_label(value: str) -> str:
    return vocabulary.label("*", "visibility", value)


@register.filter
def run_status(value: str) -> str:
    return str(RUN_STATUS_LABELS.get(value, value))


@register.filter
def inline_markdown(text: str) -> SafeString:
    """The inline Markdown of the project's docs (rules pages), rendered and sanitised by builder.web.markdown:
    bold, code, emphasis, links (http(s) and relative only), source tags such as [seed 000] as badges; raw HTML
    in the text is shown as text."""
    return markdown.inline(text)


@register.filter
def data_editor(user) -> bool:
    """{% if user|data_editor %}: the card editor's links (cards.drafts.is_data_editor: the role or staff)."""
    from cards.drafts import is_data_editor

    return is_data_editor(user)
