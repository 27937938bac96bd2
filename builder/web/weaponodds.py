"""The exact odds of a model's weapons against a chosen target (Warcaster W11), for the card page and for the list
editor's odds panel: one presenter and one template (templates/catalog/_weapon_odds.html) serve both.

The numbers come from the registry's weapon_odds (rules_engine/warcaster/odds.py): to hit, the damage roll's
distribution once it hits, the mean damage of one attack. The weapons are the card's fixed weapons, then any
warjack weapons chosen for it (a force entry's options.weapons, cards of kind "weapon").
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules_engine.systems import SystemEntry

from . import cardtext
from . import presenters


def percent(value: Any) -> str:
    return f"{float(value) * 100:.1f}%"


def weapons_of(system: str, data: Mapping[str, Any], chosen: Iterable[str], cards: Mapping[str, Mapping[str, Any]]
               ) -> list[tuple[dict[str, str], Mapping[str, Any], list[str]]]:
    """(names, weapon, qualities not modelled) for each fixed weapon of `data`, then each chosen warjack weapon
    card (codes that are not weapon cards of the catalog are skipped: the caller reports them)."""
    rows: list[tuple[dict[str, str], Mapping[str, Any], list[str]]] = []
    for weapon, row in zip((w for w in data.get("weapons") or [] if isinstance(w, Mapping)),
                           cardtext.weapon_rows(system, data)):
        rows.append((row["names"], weapon, row["other_qualities"]))
    for code in chosen:
        card = cards.get(code)
        if card is not None and card.get("kind") == "weapon":
            rows.append((presenters.names(card, code), card, cardtext.other_qualities(card)))
    return rows


def panel(game: SystemEntry, data: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]], asked: str | None,
          chosen: Iterable[str] = ()) -> dict[str, Any]:
    """The odds of `data`'s weapons (and the chosen warjack weapons) against the target `asked` (a model code of
    the catalog; by default a typical one, the registry's typical_target), or {} when the game has no odds or the
    card has no weapon or no stats."""
    weapon_odds, can_be_targeted, typical_target = game.weapon_odds, game.can_be_targeted, game.typical_target
    if weapon_odds is None or can_be_targeted is None or typical_target is None \
            or not isinstance(data.get("stats"), Mapping):
        return {}
    weapons = weapons_of(game.slug, data, chosen, cards)
    if not weapons:
        return {}
    targets = sorted((code for code, item in cards.items() if can_be_targeted(item)),
                     key=lambda code: (presenters.names(cards[code], code)["main"], code))
    target = asked if asked in targets else typical_target(cards)
    if target is None:
        return {}
    rows = []
    for names, weapon, unmodelled in weapons:
        odds = weapon_odds(data, weapon, cards[target])
        rows.append({"names": names, "stat": odds["stat"], "hit": percent(odds["hit"]),
                     "hit_exact": f"{odds['hit'].numerator}/{odds['hit'].denominator}",
                     "mean": f"{float(odds['mean']):.2f}", "not_modelled": unmodelled,
                     "damage": [(amount, percent(chance)) for amount, chance in enumerate(odds["damage"]) if chance]})
    stats = cards[target].get("stats") or {}
    return {"rows": rows, "target": target, "target_names": presenters.names(cards[target], target),
            "targets": [(code, presenters.names(cards[code], code)["main"]) for code in targets],
            "target_stats": {"def": stats.get("def"), "arm": stats.get("arm")},
            "unknown": bool(asked) and asked not in targets}
