"""Card impact, engine side: the correlation figures every result carries (each card's games used and the win rate
in them and in the others, exact counts that merge across chunks) and "test every card" (the list doctor's
variant impact: one copy of every distinct card out, on the same seeds, a verdict per card only after Holm's
correction and confirmation on fresh seeds)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_engine import doctor
from rules_engine.core.catalog import Catalog
from rules_engine.doctor import IMPACT, doctor_batch, impact_changes, minimum_games, run_doctor
from rules_engine.simulation import build_snapshot, simulate
from tests.support import planted

ROOT = Path(__file__).resolve().parents[2]
DEAD = "HS-057"  # Silver Duelist, in Akane Assault's 秘策: never used against the fortress, so no game changes
KEY_DAMAGE = "HS-050"  # Signal for Revenge, in its damage deck: the list wins clearly fewer games without it
GRENADIERS = "MW-017"  # Highland Grenadiers: Highland Line wins far fewer battles without them


def _hagmi():
    package = json.loads((ROOT / "cards/packages/hagmi/core.json").read_text(encoding="utf-8"))
    catalog = Catalog.build("hagmi", package["cards"], package["formats"])
    deck = json.loads((ROOT / "cards/packages/hagmi/lists/akane-assault.json").read_text(encoding="utf-8"))
    opponent = next(o for o in package["opponents"] if o["slug"] == "sample-fortress")
    return catalog, deck, opponent


def _mwda():
    package = planted.mwda_package()
    catalog = Catalog.build("mwda", package["cards"], package["formats"])
    opponent = next(o for o in package["opponents"] if o["slug"] == planted.OPPONENT)
    return catalog, planted.strong_army(), opponent


def _impact_batch(catalog, document, opponent, key="opponent"):
    snapshot = build_snapshot(document, catalog.cards, opponent, policy="greedy")
    return doctor_batch(snapshot, impact_changes(document, catalog), [(key, 1.0, snapshot)], catalog.cards,
                        variant=IMPACT)


def test_every_distinct_card_is_one_removal_and_a_broken_minimum_is_measured_and_marked():
    """Akane Assault has exactly 20 兵器 and 20 作戦: one copy out breaks H5's minimum, so those removals are kept,
    marked not legal; its damage and 秘策 cards may lose a copy legally. The list is never touched."""
    catalog, deck, _opponent = _hagmi()
    before = json.dumps(deck, sort_keys=True)
    changes = impact_changes(deck, catalog)
    distinct = {(section, entry["card"]) for section, entries in deck["sections"].items() for entry in entries}
    assert {(c.section, c.out) for c in changes} == distinct and len(changes) == len(distinct) == 26
    assert all(c.kind == doctor.REMOVE and c.size_change == -1 for c in changes)
    assert {c.section for c in changes if not c.legal} == {"weapons", "tactics"}
    assert all(c.legal for c in changes if c.section in ("damage", "secret"))
    assert json.dumps(deck, sort_keys=True) == before


@pytest.mark.parametrize("seed", [1, 2])
def test_a_dead_card_shows_no_detectable_effect_while_a_key_card_is_found_and_confirmed(seed):
    """HAGMI, the smallest budget: the 秘策 card that is never used changes no game (no detectable effect, an
    interval of some width around 0); the damage card the deck needs is confirmed to help on fresh seeds."""
    catalog, deck, opponent = _hagmi()
    batch = _impact_batch(catalog, deck, opponent)
    report = run_doctor(batch, games=minimum_games(26, 1), seed=seed)
    assert report["variant"] == IMPACT and report["best"] is None
    assert [stage["stage"] for stage in report["stages"]] == ["screen", "confirm"]
    by_card = {c["card"]: c for c in report["changes"]}
    dead = by_card[DEAD]
    assert dead["verdict"] == "none" and dead["stats"]["gains"] == dead["stats"]["losses"] == 0
    assert dead["effect_interval"][0] < 0 < dead["effect_interval"][1]
    key = by_card[KEY_DAMAGE]
    assert key["verdict"] == "helps" and key["stage"] == "confirm" and key["adjusted_p"] < 0.05
    assert key["effect"] > 0 and key["effect_interval"][0] > 0
    assert key["sentence"]["en"].startswith("Helps (confirmed): +") and key["sentence"]["ja"].startswith("効果あり")
    assert all(c["verdict"] in ("helps", "none", "hurts") for c in report["changes"])
    assert [c["effect"] for c in report["changes"]] == sorted((c["effect"] for c in report["changes"]), reverse=True)
    assert not key["confirmed"]  # "confirmed" stays "this change is confirmed better": removing a helping card is not


def test_a_key_unit_of_an_mwda_army_is_found_and_confirmed():
    catalog, army, opponent = _mwda()
    report = run_doctor(_impact_batch(catalog, army, opponent), games=minimum_games(3, 1), seed=1)
    top = report["changes"][0]
    assert top["card"] == GRENADIERS and top["verdict"] == "helps" and top["stage"] == "confirm"
    assert top["name"] == {"en": "Highland Grenadiers", "ja": "高地連隊擲弾兵"}


def test_the_correlation_figures_merge_exactly_whatever_the_workers_and_add_up():
    """card_impact: per card, the games used in plus the games not used in is every game, the wins likewise; the
    same summary byte for byte on 1 and 2 processes and any chunk size."""
    catalog, deck, opponent = _hagmi()
    snapshot = build_snapshot(deck, catalog.cards, opponent, policy="greedy")
    one = simulate(snapshot, games=120, seed=5, workers=1)
    two = simulate(snapshot, games=120, seed=5, workers=2, chunk_size=7)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    rows = {row["card"]: row for row in one["card_impact"]}
    assert set(rows) == {e["card"] for s in ("weapons", "tactics") for e in deck["sections"][s]}
    played = {row["card"]: row["count"] for row in one["cards_played"]}
    for code, row in rows.items():
        assert row["played_games"] + row["not_played_games"] == 120
        assert (row["played_games"] > 0) == (played.get(code, 0) > 0)
        assert row["played_games"] <= played.get(code, 0)
        wins_in = round((row["played_win_rate"] or 0) * row["played_games"])
        wins_out = round((row["not_played_win_rate"] or 0) * row["not_played_games"])
        assert wins_in + wins_out == one["wins"]
        assert row["rarely"] == ("never" if not row["played_games"] else
                                 "almost_never" if row["played_games"] / 120 < 0.02 else "")


def test_a_unit_that_never_deals_damage_is_never_used():
    catalog, _army, opponent = _mwda()
    snapshot = build_snapshot(planted.weak_army(), catalog.cards, opponent, policy="greedy")
    result = simulate(snapshot, games=30, seed=2, workers=1)
    decoy = next(row for row in result["card_impact"] if row["card"] == planted.DECOY)
    assert decoy["played_games"] == 0 and decoy["rarely"] == "never" and decoy["played_win_rate"] is None
    assert decoy["not_played_win_rate"] == result["win_rate"]


def test_hagmi_counts_the_games_a_card_was_drawn_in_from_the_lists_own_decks():
    """The list's 兵器 and 作戦 take the first card ids of a game (it is set up first), so "drawn" reads the final
    state without the draw events naming a card: every card played from the main deck was drawn first, and the
    opening hand counts."""
    from collections import Counter

    from rules_engine.hagmi.simulation import cards_drawn
    from rules_engine.simulation import simulator_for

    catalog, deck, opponent = _hagmi()
    snapshot = build_snapshot(deck, catalog.cards, opponent, policy="greedy")
    simulator = simulator_for("hagmi")
    prepared = simulator.prepare(snapshot)
    state = simulator.new_state(prepared, simulator.plan(prepared, 9, 0))
    main = Counter(e["card"] for s in ("weapons", "tactics") for e in deck["sections"][s] for _ in range(e["qty"]))
    assert Counter(state.cards[uid].code for uid in range(sum(main.values()))) == main
    opening = cards_drawn(state)
    assert sum(opening.values()) == len(state.players[0].hand) > 0  # before any turn: the opening hand
    result = simulate(snapshot, games=80, seed=4, workers=1)
    for row in result["card_impact"]:
        assert row["played_games"] <= row["drawn_games"] <= 80
        assert (row["drawn_win_rate"] is None) == (row["drawn_games"] == 0)
    mwda_catalog, army, mwda_opponent = _mwda()
    mwda = simulate(build_snapshot(army, mwda_catalog.cards, mwda_opponent, policy="greedy"), games=10, seed=1)
    assert all("drawn_games" not in row for row in mwda["card_impact"])  # every unit is deployed: nothing drawn
