"""Query parameters of GET /api/cards/ → a validated cards.selectors.CardQuery (400 naming the parameter)."""
from __future__ import annotations

from django.http import QueryDict
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError

from cards.selectors import CARD_ORDERINGS, CardQuery
from cards.systems import SYSTEMS

ORDERING_CHOICES = [prefix + key for key in CARD_ORDERINGS for prefix in ("", "-")]
TEXT_PARAMETERS = ("system", "q", "category", "kind", "faction", "frame", "ordering", "cost_min", "cost_max")
MAX_COST = 2**31 - 1  # Card.cost: past the column's range PostgreSQL raises instead of answering

CARD_FILTER_PARAMETERS = [
    OpenApiParameter("system", OpenApiTypes.STR, enum=sorted(SYSTEMS), description="Game system slug."),
    OpenApiParameter(
        "q", OpenApiTypes.STR, description="Part of the Japanese or English name or of the code (case-insensitive)."
    ),
    OpenApiParameter("category", OpenApiTypes.STR, description="HAGMI category, or MWDA/Warcaster kind."),
    OpenApiParameter("kind", OpenApiTypes.STR, description="Alias of `category`."),
    OpenApiParameter("faction", OpenApiTypes.STR, description="Faction slug (MWDA, Warcaster)."),
    OpenApiParameter("frame", OpenApiTypes.STR, description="HAGMI frame colour: black, blue, red, white, ..."),
    OpenApiParameter("cost_min", OpenApiTypes.INT, description="Minimum cost (HAGMI cost, MWDA points, Warcaster CST)."),
    OpenApiParameter("cost_max", OpenApiTypes.INT, description="Maximum cost."),
    OpenApiParameter("ordering", OpenApiTypes.STR, enum=ORDERING_CHOICES, description="Sort order; default `code`."),
]


def card_query_from_params(params: QueryDict) -> CardQuery:
    errors: dict[str, list[str]] = {}
    for name in TEXT_PARAMETERS:  # PostgreSQL refuses text holding U+0000 (found by the API fuzz run)
        if "\x00" in params.get(name, ""):
            errors[name] = [f"{name} must not contain the NUL character (U+0000)."]
    if errors:
        raise ValidationError(errors)
    system = _text(params, "system")
    if system is not None and system not in SYSTEMS:
        errors["system"] = [f"Unknown game system '{system}'; expected one of {', '.join(sorted(SYSTEMS))}."]
    category, kind = _text(params, "category"), _text(params, "kind")
    if category and kind and category != kind:
        errors["kind"] = ["`kind` is an alias of `category`; give one of them, or the same value."]
    cost_min, cost_max = _integer(params, "cost_min", errors), _integer(params, "cost_max", errors)
    if cost_min is not None and cost_max is not None and cost_min > cost_max:
        errors["cost_max"] = [f"cost_max ({cost_max}) is less than cost_min ({cost_min})."]
    ordering = _text(params, "ordering") or "code"
    if ordering not in ORDERING_CHOICES:
        errors["ordering"] = [f"Unknown ordering '{ordering}'; expected one of {', '.join(ORDERING_CHOICES)}."]
    if errors:
        raise ValidationError(errors)
    return CardQuery(
        system=system,
        q=_text(params, "q") or "",
        category=category or kind,
        faction=_text(params, "faction"),
        frame=_text(params, "frame"),
        cost_min=cost_min,
        cost_max=cost_max,
        ordering=ordering,
    )


def _text(params: QueryDict, name: str) -> str | None:
    value = params.get(name, "").strip()
    return value or None


def _integer(params: QueryDict, name: str, errors: dict[str, list[str]]) -> int | None:
    value = _text(params, name)
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        errors[name] = [f"{name} must be a whole number, got '{value}'."]
        return None
    if not 0 <= number <= MAX_COST:
        shown = value if len(value) <= 24 else value[:24] + "…"
        errors[name] = [f"{name} must be a whole number from 0 to {MAX_COST}, got {shown}."]
        return None
    return number
