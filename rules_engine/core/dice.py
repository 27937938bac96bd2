"""Dice rolled from a given `random.Random` (never the global one): 兵站 2D6, MWDA 3D6, Warcaster power dice."""
from __future__ import annotations

import random

__all__ = ["roll", "roll_total"]


def _check_positive_int(name: str, value: int, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"dice {name} must be an integer ≥ {minimum}, got {value!r}")


def roll(rng: random.Random, sides: int = 6, count: int = 1) -> tuple[int, ...]:
    """Roll `count` dice of `sides` faces (1..sides each), in the order rolled."""
    _check_positive_int("sides", sides, 1)
    _check_positive_int("count", count, 0)
    return tuple(rng.randint(1, sides) for _ in range(count))


def roll_total(rng: random.Random, sides: int = 6, count: int = 1) -> int:
    """The sum of `count` dice of `sides` faces (e.g. the 3D6 of an MWDA attack, M15)."""
    return sum(roll(rng, sides, count))
