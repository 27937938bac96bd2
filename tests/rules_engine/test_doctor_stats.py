"""The list doctor's statistics and stages (rules_engine/doctor.py): the exact paired test, its interval, Holm's
correction for testing many changes at once, the minimum budget, the two stages, and a planted weakness found again
on two seeds. Hand-made outcomes for the statistics; the bundled MWDA package for the planted weakness."""
from __future__ import annotations

import copy

import math

import pytest

from rules_engine import doctor
from rules_engine.batch import outcomes_of, run_batch
from rules_engine.core.catalog import Catalog
from rules_engine.doctor import (
    benjamini_hochberg, candidate_changes, clopper_pearson, doctor_batch, holm, minimum_games, paired_test,
    run_doctor, screen_stage, sign_test,
)
from rules_engine.simulation import build_snapshot
from tests.support import planted

# --- the exact paired test and its interval ---------------------------------------------------------------------


def test_the_sign_test_is_the_exact_binomial_on_the_games_that_changed():
    """McNemar's exact test by hand: 4 games changed, all for the change: 2·(1/2)^4 = 0.125; 7 for and 1 against:
    2·(C(8,0) + C(8,1))/2^8 = 18/256; the games that came out the same do not count; no game changed: p = 1."""
    assert sign_test(4, 0) == 0.125
    assert sign_test(7, 1) == 18 / 256
    assert sign_test(1, 7) == 18 / 256
    assert sign_test(3, 3) == 1.0
    assert sign_test(0, 0) == 1.0
    assert sign_test(60, 40) == pytest.approx(0.0569, abs=5e-5)  # R: binom.test(60, 100)$p.value = 0.05689
    stats = paired_test([(1.0, "wwwwllll" + "l" * 4, "wwwwllll" + "w" * 4)])
    assert (stats["gains"], stats["losses"], stats["p_value"], stats["exact"]) == (4, 0, 0.125, True)


def test_clopper_pearson_matches_the_published_exact_interval():
    """binom.test(5, 20) in R gives 0.0866–0.4910; 0 of n gives [0, 1 − 0.025^(1/n)]."""
    low, high = clopper_pearson(5, 20)
    assert low == pytest.approx(0.08657, abs=1e-5) and high == pytest.approx(0.49105, abs=1e-5)
    assert clopper_pearson(0, 300) == (0.0, pytest.approx(1 - 0.025 ** (1 / 300)))
    assert clopper_pearson(300, 300) == (pytest.approx(0.025 ** (1 / 300)), 1.0)


def test_a_change_with_no_game_changed_has_an_interval_that_reflects_the_sample_size():
    """No game changed: delta 0, p = 1, and an interval of width about 2·4.4/n (Clopper–Pearson on 0 of n for the
    gains and the losses, each at 97.5 %), never "±0.0"; more games make it narrower, never zero."""
    widths = []
    for n in (100, 300, 3000):
        same = ("wl" * n)[:n]
        stats = paired_test([(1.0, same, same)])
        low, high = stats["interval"]
        assert stats["delta"] == 0.0 and stats["p_value"] == 1.0
        assert low == -high and high == pytest.approx(1 - 0.0125 ** (1 / n), abs=1e-6)
        assert high > 0
        widths.append(high - low)
    assert widths[0] > widths[1] > widths[2] > 0


def test_draws_count_as_not_a_win():
    stats = paired_test([(1.0, "ddd", "www")])
    assert (stats["gains"], stats["losses"], stats["base_win_rate"], stats["win_rate"]) == (3, 0, 0.0, 1.0)


def test_unequal_opponent_weights_use_the_score_test_and_a_bonferroni_interval():
    """With unequal weights the p-value is the score test of the weighted difference (not exact); the interval uses
    each opponent's exact bounds at 1 − 0.05/4."""
    a_base, a_cand = "l" * 10 + "w" * 90, "w" * 10 + "w" * 90
    b_base, b_cand = "w" * 100, "w" * 100
    stats = paired_test([(3.0, a_base, a_cand), (1.0, b_base, b_cand)])
    assert not stats["exact"] and stats["delta"] == pytest.approx(0.75 * 0.1)
    z = 0.075 / math.sqrt(0.75 ** 2 * 10 / 100 ** 2)
    assert stats["p_value"] == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-6)
    g_low, g_high = clopper_pearson(10, 100, 1 - 0.05 / 4)
    _f_low, f_high = clopper_pearson(0, 100, 1 - 0.05 / 4)
    assert stats["interval"][0] == pytest.approx(0.75 * (g_low - f_high) + 0.25 * (0 - f_high), abs=1e-6)


# --- the correction for many changes ----------------------------------------------------------------------------


def test_holm_adjusts_a_known_set_of_p_values_as_by_hand():
    """p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005·4 = 0.02; 0.01·3 = 0.03; 0.03·2 = 0.06; 0.04·1 = 0.04,
    made monotone: 0.06. So 0.03, 0.06, 0.06, 0.02 in the given order; only the first and last stay below 0.05."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_benjamini_hochberg_adjusts_the_same_set_as_by_hand():
    """m·p/rank: 0.02, 0.02, 0.04, 0.04, made monotone from the top: 0.02, 0.04, 0.04, 0.02 in the given order."""
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])


# --- the minimum and the stages ---------------------------------------------------------------------------------


def _batch(changes: int = 3, army: dict | None = None):
    package = planted.mwda_package()
    catalog = Catalog.build("mwda", package["cards"], package["formats"])
    opponent = next(o for o in package["opponents"] if o["slug"] == planted.OPPONENT)
    army = army or planted.weak_army()
    snapshot = build_snapshot(army, catalog.cards, opponent, policy="greedy")
    found = candidate_changes(army, catalog, limit=changes)
    return doctor_batch(snapshot, found, [(planted.OPPONENT, 1.0, snapshot)], catalog.cards), catalog, opponent


def test_below_the_minimum_budget_the_doctor_refuses_and_says_why():
    batch, _catalog, _opponent = _batch(3)
    assert minimum_games(3, 1) == 4 * 100 + 2 * 300 == 1000
    assert minimum_games(30, 2) == 2 * (31 * 100 + 600)
    with pytest.raises(doctor.TooFewGames, match=r"needs at least 1000 games in all .* 999 given") as info:
        screen_stage(batch, games=999, seed=1)
    assert info.value.minimum == 1000
    stage = screen_stage(batch, games=1000, seed=1)
    assert stage == {"stage": "screen", "round": 0, "seed": 1, "games": 100, "legs": [0, 1, 2, 3]}
    assert screen_stage(batch, games=10_000, seed=1)["games"] == 1250  # half the budget: 5 000 over 4 lists


def test_the_plain_paired_run_shows_the_decoy_costs_games():
    """The planted weakness is real: on the same 300 seeds, the army with its tank back (the swap's own list, the tank
    deployed last, as the doctor plays it: where a unit stands in the line matters in MWDA) wins clearly more often
    than the army with the decoy (exact sign test on the games that changed)."""
    weak, _catalog, _opponent = _batch(0)
    batch, _c, _o = _batch(3)
    swapped = copy.deepcopy(weak)
    swapped["legs"][0]["snapshot"] = next(leg for leg in batch["legs"] if leg["change"] == planted.SWAP_BACK)["snapshot"]
    base = outcomes_of(run_batch(weak, games=300, seed=11)[0], 300)
    fixed = outcomes_of(run_batch(swapped, games=300, seed=11)[0], 300)
    stats = paired_test([(1.0, base, fixed)])
    assert stats["delta"] >= 0.08 and stats["p_value"] < 0.001 and stats["interval"][0] > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_the_doctor_confirms_the_swap_back_of_a_planted_weakness_and_names_the_unused_unit(seed):
    """Screen, then confirm on fresh seeds: the swap of the decoy back to the tank is the one confirmed change, on
    two seeds; the decoy (it never dealt damage) is named first as a unit to cut; no other change is "better"."""
    batch, _catalog, _opponent = _batch(3)
    assert planted.SWAP_BACK in {leg["change"] for leg in batch["legs"]}
    report = run_doctor(batch, games=minimum_games(3, 1), seed=seed)
    assert [stage["stage"] for stage in report["stages"]] == ["screen", "confirm"]
    assert report["stages"][1]["seed"] == doctor.confirm_seed(seed, 1) != seed
    assert report["best"] == planted.SWAP_BACK
    top = report["changes"][0]
    assert top["key"] == planted.SWAP_BACK and top["confirmed"] and top["verdict"] == "better"
    assert top["stage"] == "confirm" and top["stats"]["interval"][0] > 0 and top["adjusted_p"] < 0.05
    assert top["cuts_rarely_used"]
    assert [c["key"] for c in report["changes"] if c["confirmed"]] == [planted.SWAP_BACK]
    assert report["rarely_used"][0]["card"] == planted.DECOY and report["rarely_used"][0]["never"]
    for change in report["changes"]:
        low, high = change["stats"]["interval"]
        assert high > low and change["verdict"] in ("better", "none", "worse")
    assert report["games_played"] <= report["games"] == 1000


def test_a_change_that_changed_no_game_gets_no_detectable_effect_and_an_interval_of_some_width():
    """A "change" whose list is the list itself plays every game the same: no game changed, so its verdict is "no
    detectable effect", its interval reflects the games played (not "±0.0"), it is not confirmed (no Apply), and
    with nothing better than the list the run stops after the screen, its unplayed games reported."""
    _batch0, catalog, opponent = _batch(0, planted.strong_army())
    army = planted.strong_army()
    same = doctor.Change(kind=doctor.SWAP, out="MW-017", into="MW-017", section="army", section_into="army",
                         document=army, size_change=0, key="swap:army:MW-017>MW-017", system="mwda")
    snapshot = build_snapshot(army, catalog.cards, opponent, policy="greedy")
    batch = doctor_batch(snapshot, [same], [(planted.OPPONENT, 1.0, snapshot)], catalog.cards)
    report = run_doctor(batch, games=minimum_games(1, 1), seed=3)
    (change,) = report["changes"]
    assert change["stats"]["gains"] == change["stats"]["losses"] == 0
    assert change["verdict"] == "none" and not change["confirmed"] and report["best"] is None
    low, high = change["stats"]["interval"]
    assert low < 0 < high and high == pytest.approx(1 - 0.0125 ** (1 / 100), abs=1e-6)
    assert change["sentence"]["en"].startswith("No detectable effect: +0.0 % (95 % interval -4.3 to +4.3;")
    assert change["sentence"]["ja"].startswith("検出できる効果なし：")
    assert [stage["stage"] for stage in report["stages"]] == ["screen"]
    assert report["games_played"] == 200 < report["games"] == 800
