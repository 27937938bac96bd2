"""Batches: a gauntlet's rows and a doctor's baseline are exactly the plain runs with the same seed; the
per-game outcomes pair a changed list's games with the list's own; a planted bad unit is the doctor's top change."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_engine.batch import (
    batch_chunks, check_batch, gauntlet_batch, gauntlet_result, outcomes_of, run_batch, weighted_total,
)
from rules_engine.construction import validate_list
from rules_engine.core.stats import PerGame, Summary
from rules_engine.doctor import BASELINE, candidate_changes, doctor_batch, minimum_games, run_doctor
from rules_engine.simulation import SimulationInputError, build_snapshot, simulate, snapshot_hash
from tests.rules_engine.test_doctor import _catalog, _list

ROOT = Path(__file__).resolve().parents[2]


def _opponent(game: str, package: str, slug: str) -> dict:
    data = json.loads((ROOT / "cards/packages" / game / package).read_text(encoding="utf-8"))
    return next(o for o in data["opponents"] if o["slug"] == slug)


HAGMI = _catalog("hagmi")


def _hagmi_snapshot(slug: str, **policies) -> dict:
    return build_snapshot(_list("hagmi", "sample-fortress"), HAGMI.cards, _opponent("hagmi", "core.json", slug),
                          policy=policies.get("policy", "greedy"), opponent_policy=policies.get("opponent_policy"))


def test_gauntlet_rows_equal_the_separate_runs_with_the_same_seed():
    legs = [("sample-vanguard", 2.0, _hagmi_snapshot("sample-vanguard")),
            ("coop-abyssal-ark", 1.0, _hagmi_snapshot("coop-abyssal-ark"))]
    batch = gauntlet_batch(legs)
    result = gauntlet_result(batch, run_batch(batch, games=40, seed=11, chunk_size=15), games=40, seed=11)
    for (key, _, snapshot), row in zip(legs, result["opponents"]):
        alone = simulate(snapshot, games=40, seed=11)
        assert row["result"] == alone and row["key"] == key
        assert row["win_rate"] == alone["win_rate"] and row["length"] == {"unit": "turns",
                                                                           "mean": alone["turns"]["mean"]}
    assert [row["weight"] for row in result["opponents"]] == [pytest.approx(2 / 3, abs=1e-6),
                                                               pytest.approx(1 / 3, abs=1e-6)]
    rows = result["opponents"]
    expected = sum(row["weight"] * row["win_rate"] for row in rows)
    assert result["total"]["win_rate"] == pytest.approx(expected, abs=1e-6)
    low, high = result["total"]["win_rate_interval"]
    assert low <= result["total"]["win_rate"] <= high


def test_a_batch_gives_the_same_bytes_whatever_the_chunks_and_processes():
    batch = gauntlet_batch([("sample-vanguard", 1.0, _hagmi_snapshot("sample-vanguard")),
                            ("goldfish", 1.0, _hagmi_snapshot("goldfish"))])
    one = gauntlet_result(batch, run_batch(batch, games=30, seed=5), games=30, seed=5)
    cut = gauntlet_result(batch, run_batch(batch, games=30, seed=5, chunk_size=7, workers=2), games=30, seed=5)
    assert json.dumps(one, sort_keys=True) == json.dumps(cut, sort_keys=True)
    assert [leg for leg, _ in batch_chunks(batch, 30, 7)] == [0] * 5 + [1] * 5


def test_the_doctor_baseline_is_the_plain_run_and_outcomes_follow_game_indices():
    snapshot = _hagmi_snapshot("sample-vanguard")
    changes = candidate_changes(snapshot["list"], HAGMI, limit=3)
    batch = doctor_batch(snapshot, changes, [("sample-vanguard", 1.0, snapshot)], HAGMI.cards)
    summaries = run_batch(batch, games=25, seed=9, chunk_size=10)
    alone = simulate(snapshot, games=25, seed=9)
    base = outcomes_of(summaries[0], 25)
    assert len(base) == 25 and base.count("w") == alone["wins"]
    result = run_doctor(batch, games=minimum_games(3, 1), seed=9, chunk_size=10)
    assert result["stages"][0]["games"] == 100  # the screen: the run seed, the list's plain run
    assert result["baseline"]["opponents"][0]["result"] == simulate(snapshot, games=100, seed=9)
    assert {change["key"] for change in result["changes"]} == {change.key for change in changes}
    assert [leg["change"] for leg in batch["legs"]] == [BASELINE] + [change.key for change in changes]
    for change in result["changes"]:
        assert change["sentence"]["en"].startswith(("Confirmed better: ", "No detectable effect: ", "Worse: "))
        assert "%" in change["sentence"]["ja"]


PAPER = {"code": "T-PAPER", "name": "紙の兵", "name_en": "Paper Troopers", "kind": "infantry", "points": 30,
         "faction": "highlanders", "rank": "green",
         "primary": {"min_range": 0, "max_range": 1, "damage_type": "ballistic"},
         "dial": [{"primary_damage": 0, "move": 1, "attack": 1, "defense": 5}]}


def test_the_doctor_confirms_taking_out_a_planted_bad_unit_with_an_interval_that_excludes_zero():
    """A unit that cannot hurt anyone and falls at the first hit, in place of the Highland Grenadiers of the same
    points: the confirmed change takes it out, and its paired interval is above 0. No change breaks the list
    (M1-M4)."""
    catalog = _catalog("mwda", [PAPER])
    document = _list("mwda", "highland-line")
    document["sections"]["army"][2] = {"card": "T-PAPER", "qty": 1}
    assert validate_list(document, catalog)["legal"]
    opponent = _opponent("mwda", "core-sample.json", "steel-wolves-pack")
    snapshot = build_snapshot(document, catalog.cards, opponent, policy="greedy")
    changes = candidate_changes(document, catalog, limit=6)
    assert all(validate_list(change.document, catalog)["legal"] for change in changes)
    batch = doctor_batch(snapshot, changes, [("steel-wolves-pack", 1.0, snapshot)], catalog.cards)
    # three times the minimum budget: at the minimum the screen can miss a +13-point change on an unlucky seed
    result = run_doctor(batch, games=3 * minimum_games(len(changes), 1), seed=7)
    best = result["changes"][0]
    assert best["out"] == "T-PAPER" and best["kind"] in ("swap", "remove") and best["confirmed"]
    assert best["stats"]["interval"][0] > 0 and best["stats"]["significant"]
    assert result["best"] == best["key"]
    assert best["sentence"]["en"].startswith("Confirmed better: +") and "Paper Troopers" in best["sentence"]["en"]
    assert "紙の兵" in best["sentence"]["ja"]


def test_opponent_policy_plays_the_other_side_and_is_kept_only_when_given():
    plain = _hagmi_snapshot("sample-vanguard")
    assert "opponent_policy" not in plain  # a snapshot without it hashes as before
    random_other = _hagmi_snapshot("sample-vanguard", opponent_policy="random")
    assert snapshot_hash(plain) != snapshot_hash(random_other)
    same = simulate(plain, games=60, seed=3)
    weaker = simulate(random_other, games=60, seed=3)
    assert weaker["opponent_policy"] == "random" and "opponent_policy" not in same
    assert weaker["win_rate"] > same["win_rate"]  # a random opponent is the easier one
    with pytest.raises(SimulationInputError, match="opponent_policy: unknown policy 'nope'"):
        simulate(_hagmi_snapshot("sample-vanguard", opponent_policy="nope"), games=1, seed=1)


def test_a_bad_batch_names_the_leg():
    batch = gauntlet_batch([("a", 1.0, _hagmi_snapshot("goldfish")), ("a", 1.0, _hagmi_snapshot("goldfish"))])
    with pytest.raises(SimulationInputError, match=r"legs\[1\].key: 'a' is given twice"):
        check_batch(batch, games=10, seed=1)
    batch = gauntlet_batch([("a", 0.0, _hagmi_snapshot("goldfish"))])
    with pytest.raises(SimulationInputError, match="at least one opponent needs a weight above 0"):
        check_batch(batch, games=10, seed=1)


def test_weighted_total_normalises_weights():
    total = weighted_total([(3.0, 50, 100), (1.0, 10, 100)])
    assert total["win_rate"] == pytest.approx(0.75 * 0.5 + 0.25 * 0.1)
    low, high = total["win_rate_interval"]
    assert 0 < low < total["win_rate"] < high < 1


def test_per_game_outcomes_merge_in_any_order_and_refuse_a_game_twice():
    a, b = Summary(), Summary()
    for index, char in enumerate("wlw"):
        a.per_game("o").add(index, char)
    for index, char in enumerate("dd", 3):
        b.per_game("o").add(index, char)
    ab = Summary().merge(a).merge(b)
    ba = Summary().merge(b).merge(a)
    assert ab.per_game("o").text() == ba.per_game("o").text() == "wlwdd"
    assert Summary.from_dict(ab.to_dict(exact=True)).to_dict() == ab.to_dict()
    with pytest.raises(ValueError, match="overlap"):
        ab.merge(a)
    with pytest.raises(ValueError, match="not all here"):
        PerGame({0: "ww", 3: "l"}).text()
