"""Exact draw probabilities against brute-force enumeration and scipy.stats.hypergeom."""
from fractions import Fraction
from itertools import combinations

import pytest

from rules_engine.core.hypergeom import prob_at_least, prob_at_least_multi


def _brute(deck_size, groups, draws):
    """Enumerate every hand: cards 0.. are group 0's, then group 1's, ...; the rest belong to no group."""
    owner = []
    for g, (size, _) in enumerate(groups):
        owner += [g] * size
    owner += [None] * (deck_size - len(owner))
    hands = wins = 0
    for hand in combinations(range(deck_size), draws):
        hands += 1
        drawn = [sum(1 for c in hand if owner[c] == g) for g in range(len(groups))]
        wins += all(drawn[g] >= k for g, (_, k) in enumerate(groups))
    return Fraction(wins, hands)


@pytest.mark.parametrize("deck_size", [1, 5, 9, 12])
def test_single_group_matches_enumeration(deck_size):
    for group in range(deck_size + 1):
        for draws in range(deck_size + 1):
            for k in range(0, min(group, draws) + 2):
                assert prob_at_least(deck_size, group, draws, k) == _brute(deck_size, [(group, k)], draws)


@pytest.mark.parametrize(
    "deck_size, groups, draws",
    [(12, [(3, 1), (4, 2)], 5), (12, [(2, 1), (2, 1), (3, 1)], 6), (10, [(4, 0), (3, 3)], 4),
     (11, [(5, 2), (6, 3)], 7), (9, [], 3), (12, [(3, 2), (3, 2)], 3)],
)
def test_several_groups_match_enumeration(deck_size, groups, draws):
    assert prob_at_least_multi(deck_size, groups, draws) == _brute(deck_size, groups, draws)


def test_known_value_opening_hand():
    # 40-card deck with 3 copies, 7 cards seen: 1 - C(37,7)/C(40,7) = 1 - 10295472/18643560.
    assert prob_at_least(40, 3, 7, 1) == 1 - Fraction(10295472, 18643560)
    assert round(float(prob_at_least(40, 3, 7, 1)), 6) == 0.447773


def test_against_scipy_hypergeom():
    import scipy.stats as stats  # a test requirement (requirements.txt): never skipped
    for deck, group, draws, k in [(40, 3, 7, 1), (40, 6, 10, 2), (60, 4, 7, 1), (20, 10, 10, 5)]:
        expected = stats.hypergeom.sf(k - 1, deck, group, draws)  # P(X > k - 1) = P(X ≥ k)
        assert float(prob_at_least(deck, group, draws, k)) == pytest.approx(expected)


@pytest.mark.parametrize(
    "args, message",
    [((10, 11, 3, 1), r"groups\[0\] group_size must be an integer between 0 and 10"),
     ((10, 3, 11, 1), "draws must be an integer between 0 and 10"),
     ((10, 3, 2, -1), r"groups\[0\] k must be an integer ≥ 0"),
     ((-1, 0, 0, 0), "deck_size must be an integer ≥ 0"),
     ((10, 3, 2.0, 1), "draws must be an integer")],
)
def test_bad_arguments_say_what_is_wrong(args, message):
    with pytest.raises(ValueError, match=message):
        prob_at_least(*args)


def test_groups_larger_than_the_deck_are_refused():
    with pytest.raises(ValueError, match="hold 12 cards together but the deck has only 10"):
        prob_at_least_multi(10, [(6, 1), (6, 1)], 3)
    with pytest.raises(ValueError, match=r"groups\[1\] must be a \(group_size, k\) pair"):
        prob_at_least_multi(10, [(2, 1), 3], 3)
