"""Exact draw odds for a HAGMI! list (issue 3): "P(at least k of these cards among the first n drawn from 兵器)".

Answered exactly with the multivariate hypergeometric distribution (rules_engine/core/hypergeom.py), not by
sampling. The 兵器 (weapons) and 作戦 (tactics) decks are shuffled separately (RULES.md §1.3), so each question is
about one deck. The opening hand draws 2 from each (option `opening_split` = 2/2).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules_engine.core.hypergeom import prob_at_least_multi

DECKS = {"weapons": "兵器", "tactics": "作戦"}
OPENING_DRAWS = {"weapons": 2, "tactics": 2}


class OddsError(ValueError):
    """The question cannot be answered: the message names the field that is wrong."""


def deck_counts(document: Mapping[str, Any], deck: str) -> dict[str, int]:
    """Copies per card code in one deck of a hangar.list/1 document (bad entries are ignored)."""
    counts: dict[str, int] = {}
    sections = document.get("sections") if isinstance(document, Mapping) else None
    entries = (sections or {}).get(deck) if isinstance(sections, Mapping) else None
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("card"), str):
            continue
        qty = entry.get("qty", 1)
        if isinstance(qty, int) and not isinstance(qty, bool) and qty > 0:
            counts[entry["card"]] = counts.get(entry["card"], 0) + qty
    return counts


def draw_odds(
    document: Mapping[str, Any],
    *,
    deck: str,
    groups: Sequence[Mapping[str, Any]],
    draws: int | None = None,
) -> dict[str, Any]:
    """The exact probability that, among the first `draws` cards of `deck`, every group has at least its
    `at_least` cards. A group is {"cards": [codes], "at_least": k}; groups must not share a card."""
    if not isinstance(deck, str) or deck not in DECKS:  # a list or an object is no deck (and is unhashable)
        raise OddsError(f"deck: expected one of {', '.join(DECKS)}, got {deck!r}")
    counts = deck_counts(document, deck)
    deck_size = sum(counts.values())
    if draws is None:
        draws = OPENING_DRAWS[deck]
    if isinstance(draws, bool) or not isinstance(draws, int) or not 0 <= draws <= max(deck_size, 0):
        raise OddsError(f"draws: expected an integer from 0 to the deck size {deck_size}, got {draws!r}")
    if not isinstance(groups, Sequence) or isinstance(groups, (str, bytes)) or not groups:
        raise OddsError("groups: expected a non-empty list of {\"cards\": [...], \"at_least\": k}")
    seen: dict[str, int] = {}
    sizes: list[tuple[int, int]] = []
    described = []
    for number, group in enumerate(groups, start=1):
        where = f"groups[{number - 1}]"
        if not isinstance(group, Mapping):
            raise OddsError(f"{where}: expected an object with cards and at_least")
        codes = group.get("cards")
        if not isinstance(codes, Sequence) or isinstance(codes, (str, bytes)) or not codes:
            raise OddsError(f"{where}.cards: expected a non-empty list of card codes")
        at_least = group.get("at_least", 1)
        if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
            raise OddsError(f"{where}.at_least: expected an integer ≥ 0, got {at_least!r}")
        size = 0
        for code in codes:
            if not isinstance(code, str):
                raise OddsError(f"{where}.cards: {code!r} is not a card code")
            if code in seen and seen[code] != number:
                raise OddsError(f"{where}.cards: {code} is already in group {seen[code]}; groups must not share cards")
            if code not in counts:
                raise OddsError(f"{where}.cards: {code} is not in the {DECKS[deck]} ({deck}) deck of this list")
            if seen.get(code) != number:
                size += counts[code]
            seen[code] = number
        sizes.append((size, at_least))
        described.append({"cards": sorted(set(codes)), "copies": size, "at_least": at_least})
    probability: Fraction = prob_at_least_multi(deck_size, sizes, draws)
    return {
        "deck": deck,
        "deck_size": deck_size,
        "draws": draws,
        "groups": described,
        "probability": round(float(probability), 9),
        "exact": f"{probability.numerator}/{probability.denominator}",
    }
