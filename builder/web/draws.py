"""The editor's draw odds panel (HAGMI!): the exact chance to hold a cheap unit early, and a sample opening hand.

The figures are the engine's own exact answers (the registry's `odds`, the function behind POST /api/odds/): the
chance that the opening hand, and the cards drawn by the draw step (兵站) of turns 1, 2 and 3, hold at least one unit
of cost 2 or less from the 兵器 deck. They follow the draft: the panel is rendered with every editor answer.

"Draw a sample hand" is a submit button of the editor form carrying a seed (`sample_hand`): the server deals the
opening hand from that seed (the registry's `sample_hand`: each deck shuffled, 2 + 2) and renders it with a button
for a new seed, so each click deals a new hand, works without JavaScript, and a seed always deals the same hand.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from rules_engine.core.catalog import Catalog
from rules_engine.systems import UnknownSystem
from rules_engine.systems import system as game_system

from . import presenters

CHEAP_COST = 2  # "a unit of cost 2 or less": what a hand needs to start producing on turn 1
TURNS = (0, 1, 2, 3)  # 0: the opening hand
DECK = "weapons"  # units live in the 兵器 deck (H3)
SEED_LIMIT = 1_000_000  # seeds are shown ("hand #48213"), so short numbers
FIELD = "sample_hand"  # the button's name


def seed_of(data: Mapping[str, Any] | None) -> int | None:
    """The seed of the sample hand asked for (the button's value), or None."""
    value = data.get(FIELD) if data else None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= len(str(SEED_LIMIT)):
        return int(value)
    return None


def new_seed() -> int:
    return 1 + secrets.randbelow(SEED_LIMIT - 1)


def cheap_units(document: Mapping[str, Any], cat: Catalog, max_cost: int = CHEAP_COST) -> list[str]:
    """The 兵器 deck's unit cards (category `unit`) of cost `max_cost` or less, by code."""
    sections = document.get("sections") if isinstance(document, Mapping) else None
    entries = sections.get(DECK) if isinstance(sections, Mapping) else None
    codes = []
    for entry in entries if isinstance(entries, list) else []:
        card = cat.cards.get(entry.get("card")) if isinstance(entry, Mapping) else None
        cost = card.get("cost") if card is not None else None
        if card is not None and card.get("category") == "unit" and isinstance(cost, int) and cost <= max_cost:
            if entry["card"] not in codes:
                codes.append(entry["card"])
    return codes


def _deck_size(document: Mapping[str, Any], deck: str) -> int:
    entries = (document.get("sections") or {}).get(deck) or []
    return sum(e.get("qty", 1) for e in entries if isinstance(e, Mapping) and isinstance(e.get("qty", 1), int))


def turn_label(turn: int) -> str:
    return _("Opening hand") if turn == 0 else _("By turn %(n)s") % {"n": turn}


def odds_panel(document: Mapping[str, Any], cat: Catalog, *, seed: int | None = None) -> dict[str, Any] | None:
    """What the panel shows, or None for a game without draw odds (MWDA, Warcaster)."""
    try:
        game = game_system(str(document.get("system")))
    except UnknownSystem:
        return None
    if game.odds is None:
        return None
    codes = cheap_units(document, cat)
    copies = sum(e.get("qty", 1) for e in (document.get("sections") or {}).get(DECK) or []
                 if isinstance(e, Mapping) and e.get("card") in codes and isinstance(e.get("qty", 1), int))
    rows = []
    if codes:
        for turn in TURNS:
            try:
                answer = game.odds(document, deck=DECK, groups=[{"cards": codes, "at_least": 1}], turn=turn)
            except Exception as error:  # noqa: BLE001  (game.odds_error: a draft the odds cannot read)
                if game.odds_error is not None and isinstance(error, game.odds_error):
                    return None
                raise
            rows.append({"turn": turn, "label": turn_label(turn), "probability": answer["probability"],
                         "exact": answer["exact"]})
    hand = None
    if seed is not None and game.sample_hand is not None:
        dealt = game.sample_hand(document, seed)
        hand = []
        for deck, drawn in dealt.items():
            for code in drawn:
                card = cat.cards.get(code)
                hand.append({"code": code, "deck": presenters.section_label(deck),
                             "names": presenters.names(card, code),
                             "cost": presenters.card_cost(str(document.get("system")), card) if card else None,
                             "cheap": code in codes})
    return {"rows": rows, "copies": copies, "deck_size": _deck_size(document, DECK), "cost": CHEAP_COST,
            "hand": hand, "seed": seed, "next_seed": new_seed(), "field": FIELD}
