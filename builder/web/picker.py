"""The editor's card picker: its filters (category or kind, frame, faction, suit, cost) and its rows with each card's
text on demand.

Each filter offers only values that the system's player cards have (HAGMI: category, frame, cost; MWDA: kind,
faction, points; Warcaster: kind, faction, suit, CST: what the bundled packages give), in words
(builder.web.vocabulary); a filter with fewer than two values is left out, so no select offers "(any)" alone. The fields travel with the editor form (GET for the htmx
picker, POST for the no-JS Search button), under names the editor form does not use.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from cards.models import Card
from cards.selectors import CardQuery
from rules_engine.core.catalog import Catalog

from . import cardtext, vocabulary
from . import presenters

PREFIX = "pick"  # field names pick-category, pick-cost_min, ...; ids picker-category, ...
MAX_COST = 999

# The filters' labels by what the game calls the field: the card field that says what a card is (its presentation's
# `category_field`) and the field its cost chart counts (its entry's first `cost_fields`).
CATEGORY_LABELS = {"category": _("Category"), "kind": _("Kind")}
COST_LABELS = {
    "cost": (_("Cost from"), _("Cost to")),
    "points": (_("Points from"), _("Points to")),
    "cst": (_("CST from"), _("CST to")),
}


def _distinct(cards: QuerySet[Card], field: str) -> list[str]:
    return sorted({str(value) for value in cards.order_by().values_list(field, flat=True).distinct() if value})


class PickerFilterForm(forms.Form):
    """The picker's filters for one system; `choices_from` is the system's player cards (never 機獣 or 母艦)."""

    category = forms.ChoiceField(required=False)
    frame = forms.ChoiceField(label=_("Frame"), required=False)
    faction = forms.ChoiceField(label=_("Faction"), required=False)
    suit = forms.ChoiceField(label=_("Suit"), required=False)
    cost_min = forms.IntegerField(required=False, min_value=0, max_value=MAX_COST)
    cost_max = forms.IntegerField(required=False, min_value=0, max_value=MAX_COST)

    def __init__(self, system: str, choices_from: QuerySet[Card], data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data=data, prefix=PREFIX, auto_id="picker-%s")
        self.system = system
        anything = [("", _("(any)"))]
        values = {  # a game whose cards have no frame (MWDA, Warcaster) or no suit (HAGMI, MWDA) gets no such select
            "category": vocabulary.choices(system, "category", _distinct(choices_from, "category")),
            "frame": vocabulary.choices(system, "frame", _distinct(choices_from, "data__frame")),
            "faction": vocabulary.choices(system, "faction", _distinct(choices_from, "faction")),
            "suit": vocabulary.choices(system, "suit", _distinct(choices_from, "data__suit")),
        }
        for name, found in values.items():
            if len(found) < 2:  # nothing to choose between: no select at all
                del self.fields[name]
            else:
                self.fields[name].choices = anything + found
        shows = presenters.presentation(system)
        if "category" in self.fields:  # a game whose cards are all of one kind gets no such select
            self.fields["category"].label = CATEGORY_LABELS.get(shows.category_field, _("Category"))
        low, high = COST_LABELS.get(presenters.cost_field(system), (_("Cost from"), _("Cost to")))
        self.fields["cost_min"].label, self.fields["cost_max"].label = low, high
        for field in self.fields.values():
            field.widget.attrs.setdefault("class", "picker-filter")

    @property
    def active(self) -> bool:
        """Whether any filter is set (the page says so beside the results)."""
        return bool(self.is_bound and self.is_valid() and any(v not in (None, "") for v in self.cleaned_data.values()))

    def query(self, q: str) -> CardQuery:
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return CardQuery(system=self.system, q=q, category=data.get("category") or None,
                         faction=data.get("faction") or None, frame=data.get("frame") or None,
                         cost_min=data.get("cost_min"), cost_max=data.get("cost_max"))

    def narrow(self, cards: QuerySet[Card]) -> QuerySet[Card]:
        """What CardQuery cannot say: the Warcaster suit."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        return cards.filter(data__suit=data["suit"]) if data.get("suit") else cards


def bound_data(data: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The request's data when it carries any picker field, else None (an unbound form: no filter)."""
    if not data:
        return None
    return data if any(key.startswith(f"{PREFIX}-") for key in data) else None


def rows(system: str, cards: QuerySet[Card] | list[Card], cat: Catalog) -> list[dict[str, Any]]:
    """The picker's rows: name, cost, category in words, the section "add" puts it in, and its text in words."""
    def card_name(code: str) -> str:
        return presenters.names(cat.cards.get(code), code)["main"]

    found = []
    for card in cards:
        text = cardtext.describe(system, card.data, card_name)
        found.append({"code": card.code, "names": presenters.names(card.data, card.code),
                      "cost": presenters.card_cost(system, card.data),
                      "category": card.category, "kind": vocabulary.label(system, "category", card.category),
                      "section": presenters.default_section(system, card.data), "text": text,
                      "has_text": bool(text["facts"] or text["lines"] or text["text"]),
                      "tip": presenters.dom_id(card.code),
                      "partial": cardtext.not_modelled(card.data)})  # played only in part
    return found
