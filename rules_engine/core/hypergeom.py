"""Exact draw probabilities ("the chance to hold 2 補給物資 and a unit by turn 3"), never by sampling.

Drawing `draws` cards without replacement from a shuffled deck of `deck_size` cards is hypergeometric; for
several disjoint groups of cards at once it is multivariate hypergeometric. Counts of hands are computed
exactly with `math.comb` and the result is an exact `Fraction` (call `float()` on it for display).
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

__all__ = ["prob_at_least", "prob_at_least_multi"]


def _check(name: str, value: int, lo: int, hi: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        bound = f"between {lo} and {hi}" if hi is not None else f"≥ {lo}"
        raise ValueError(f"{name} must be an integer {bound}, got {value!r}")


def prob_at_least(deck_size: int, group_size: int, draws: int, k: int) -> Fraction:
    """P(at least `k` of the `group_size` group cards are among `draws` cards drawn from `deck_size`)."""
    return prob_at_least_multi(deck_size, [(group_size, k)], draws)


def prob_at_least_multi(deck_size: int, groups: Sequence[tuple[int, int]], draws: int) -> Fraction:
    """P(for every (group_size, k) in `groups`, at least k cards of that group are drawn); groups are disjoint.

    Counts the winning hands group by group: `ways[j]` is the number of ways to pick j cards from the groups
    seen so far with each meeting its minimum; the rest of the hand comes from the cards in no group.
    """
    _check("deck_size", deck_size, 0)
    _check("draws", draws, 0, deck_size)
    in_groups = 0
    for i, group in enumerate(groups):
        if not isinstance(group, (tuple, list)) or len(group) != 2:
            raise ValueError(f"groups[{i}] must be a (group_size, k) pair, got {group!r}")
        _check(f"groups[{i}] group_size", group[0], 0, deck_size)
        _check(f"groups[{i}] k", group[1], 0)
        in_groups += group[0]
    if in_groups > deck_size:
        raise ValueError(f"the groups hold {in_groups} cards together but the deck has only {deck_size}")

    ways = [1] + [0] * draws  # ways[j]: hands of j cards from the groups so far, every minimum met
    for size, k in groups:
        step = [0] * (draws + 1)
        for used, count in enumerate(ways):
            if count:
                for taken in range(k, min(size, draws - used) + 1):
                    step[used + taken] += count * comb(size, taken)
        ways = step
    others = deck_size - in_groups
    winning = sum(count * comb(others, draws - used) for used, count in enumerate(ways) if count)
    return Fraction(winning, comb(deck_size, draws))
