"""Dice come from the given generator only."""
import random

import pytest

from rules_engine.core.dice import roll, roll_total
from rules_engine.core.rng import game_rng


def test_roll_gives_count_faces_within_sides():
    faces = roll(game_rng(1, 0), sides=6, count=500)
    assert len(faces) == 500
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_roll_is_reproducible_from_the_same_seed_whatever_the_global_state():
    random.seed(3)
    first = roll(game_rng(2, 0), count=10)
    random.seed(4)
    assert roll(game_rng(2, 0), count=10) == first


def test_roll_total_is_the_sum_of_the_same_roll():
    assert roll_total(game_rng(3, 0), 6, 3) == sum(roll(game_rng(3, 0), 6, 3))
    assert roll(game_rng(3, 0), count=0) == ()


@pytest.mark.parametrize("sides, count", [(0, 1), (6, -1), (6.0, 1), (6, True)])
def test_roll_rejects_bad_dice(sides, count):
    with pytest.raises(ValueError, match="dice"):
        roll(random.Random(0), sides, count)
