"""Exact draw odds for a HAGMI! list: "P(at least k of these cards among the first n drawn from 兵器)".

Answered exactly with the multivariate hypergeometric distribution (rules_engine/core/hypergeom.py), not by
sampling. The 兵器 (weapons) and 作戦 (tactics) decks are shuffled separately (RULES.md §1.3), so each question is
about one deck. The opening hand draws 2 from each (option `opening_split` = 2/2).

"By turn t" adds the draw steps (兵站) of your first t turns to the opening hand: each rolls 2 dice, a
die of 1–3 draws 1 from 作戦 and 4–6 from 兵器, doubles draw 1 more from that deck (RULES.md §1.3, game.py
`_logistics_draw`), so the number of cards a deck gives by turn t is itself random. Its exact distribution is
counted over the 36 faces of each roll, and the answer is the exact mixture Σ P(k cards) · P(hit among the first k).

`sample_hand` deals one opening hand from a seed, as the engine's set-up does (shuffle each deck, 2 + 2).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules_engine.core.hypergeom import prob_at_least_multi

DECKS = {"weapons": "兵器", "tactics": "作戦"}
OPENING_DRAWS = {"weapons": 2, "tactics": 2}
MAX_TURN = 10  # "by turn t" answers up to this many draw steps (the exact mixture grows with t)
DIE_FACES = range(1, 7)


def _logistics_step(deck: str) -> dict[int, Fraction]:
    """Cards one 兵站 draw step gives from `deck`: {count: probability} over the 36 rolls of 2 dice."""
    counts: dict[int, int] = {}
    for first in DIE_FACES:
        for second in DIE_FACES:
            decks = ["weapons" if die >= 4 else "tactics" for die in (first, second)]
            if first == second:
                decks.append(decks[0])
            drawn = decks.count(deck)
            counts[drawn] = counts.get(drawn, 0) + 1
    return {drawn: Fraction(ways, 36) for drawn, ways in sorted(counts.items())}


def draws_by_turn(deck: str, turn: int) -> dict[int, Fraction]:
    """The exact distribution of how many cards `deck` has given by the draw step of your turn `turn`
    (0: the opening hand alone): {cards drawn: probability}."""
    step = _logistics_step(deck)
    dist = {OPENING_DRAWS[deck]: Fraction(1)}
    for _ in range(turn):
        following: dict[int, Fraction] = {}
        for drawn, p in dist.items():
            for more, q in step.items():
                following[drawn + more] = following.get(drawn + more, Fraction(0)) + p * q
        dist = following
    return dist


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
    turn: int | None = None,
) -> dict[str, Any]:
    """The exact probability that, among the first `draws` cards of `deck`, every group has at least its
    `at_least` cards. A group is {"cards": [codes], "at_least": k}; groups must not share a card.

    With `turn` instead of `draws`: among the cards drawn by the draw step of your turn `turn` (0 = the opening
    hand; the number of cards is random, see the module docstring), an exact mixture; a deck that runs out gives
    no more cards."""
    if not isinstance(deck, str) or deck not in DECKS:  # a list or an object is no deck (and is unhashable)
        raise OddsError(f"deck: expected one of {', '.join(DECKS)}, got {deck!r}")
    counts = deck_counts(document, deck)
    deck_size = sum(counts.values())
    if turn is not None:
        if draws is not None:
            raise OddsError("give draws or turn, not both")
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= MAX_TURN:
            raise OddsError(f"turn: expected an integer from 0 to {MAX_TURN}, got {turn!r}")
        mixture = draws_by_turn(deck, turn)
        draws = min(OPENING_DRAWS[deck], deck_size)
    elif draws is None:
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
    if turn is None:
        probability: Fraction = prob_at_least_multi(deck_size, sizes, draws)
    else:
        probability = sum((p * prob_at_least_multi(deck_size, sizes, min(drawn, deck_size))
                           for drawn, p in mixture.items()), Fraction(0))
    answer = {
        "deck": deck,
        "deck_size": deck_size,
        "draws": draws,
        "groups": described,
        "probability": round(float(probability), 9),
        "exact": f"{probability.numerator}/{probability.denominator}",
    }
    if turn is not None:  # how many cards the deck gives by then: {count: exact probability}
        answer.update(draws=None, turn=turn,
                      cards_drawn={str(drawn): f"{p.numerator}/{p.denominator}" for drawn, p in mixture.items()})
    return answer


def sample_hand(document: Mapping[str, Any], seed: int) -> dict[str, list[str]]:
    """One opening hand dealt from `seed`: each deck shuffled on its own, then 2 from 兵器 and 2 from 作戦 (fewer
    when a deck is smaller). {"weapons": [codes], "tactics": [codes]}, in the order drawn. The same seed and list
    always deal the same hand."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OddsError(f"seed: expected an integer, got {seed!r}")
    rng = random.Random(seed)
    hand: dict[str, list[str]] = {}
    for deck in DECKS:
        cards = [code for code, qty in sorted(deck_counts(document, deck).items()) for _ in range(qty)]
        rng.shuffle(cards)
        hand[deck] = cards[:OPENING_DRAWS[deck]]
    return hand
