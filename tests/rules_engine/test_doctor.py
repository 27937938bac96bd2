"""The list doctor's engine side (rules_engine/doctor.py): which single changes of a list are tried, and
how a candidate's games are read against the list's own games on the same seeds."""
from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from rules_engine import doctor
from rules_engine.construction import validate_list
from rules_engine.core.catalog import Catalog
from rules_engine.doctor import (
    MAX_VALIDATIONS, VALIDATION_ENTRIES, Change, candidate_changes, change_from_key, paired_difference, rank_changes,
    verdict_sentence,
)
from rules_engine.systems import system

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"hagmi": "core", "mwda": "core-sample", "warcaster": "core-sample"}


def _package(game: str) -> dict:
    return json.loads((ROOT / f"cards/packages/{game}/{PACKAGES[game]}.json").read_text(encoding="utf-8"))


def _catalog(game: str, extra: list[dict] | None = None) -> Catalog:
    package = _package(game)
    foreign = {card["code"]: other for other in PACKAGES if other != game for card in _package(other)["cards"]}
    return Catalog.build(game, package["cards"] + (extra or []), package["formats"], foreign_cards=foreign)


@pytest.fixture
def validations(monkeypatch) -> list[int]:
    """The size (entries) of every list the doctor validates: its search is bounded by how many lists it checks and
    how many entries they hold (MAX_VALIDATIONS, VALIDATION_ENTRIES), not by a clock (its speed is measured in
    benchmarks/bench_doctor.py)."""
    sizes: list[int] = []

    def counted(document, catalog, lang="en"):
        sizes.append(sum(len(v) for v in document.get("sections", {}).values() if isinstance(v, list)))
        return validate_list(document, catalog, lang)

    monkeypatch.setattr(doctor, "validate_list", counted)
    return sizes


def _list(game: str, name: str) -> dict:
    return json.loads((ROOT / f"cards/packages/{game}/lists/{name}.json").read_text(encoding="utf-8"))


CATALOGS = {game: _catalog(game) for game in PACKAGES}
SAMPLES = [("hagmi", "sample-vanguard"), ("hagmi", "hibari-skirmish"), ("mwda", "highland-line"),
           ("warcaster", "isa-starsteel-vanguard"), ("warcaster", "marcher-dust-raiders")]


@pytest.mark.parametrize("game,name", SAMPLES)
def test_every_candidate_of_a_sample_list_is_legal_and_the_list_is_untouched(game, name, validations):
    doc, catalog = _list(game, name), CATALOGS[game]
    before = copy.deepcopy(doc)
    changes = candidate_changes(doc, catalog)
    assert doc == before, "candidate_changes changed the list it was given"
    assert changes and len(changes) <= 30
    # the search is bounded: the list itself, then at most MAX_VALIDATIONS changed lists
    assert 1 < len(validations) <= 1 + MAX_VALIDATIONS, f"candidate_changes validated {len(validations)} lists"
    keys = [change.key for change in changes]
    assert len(set(keys)) == len(keys), "keys are unique"
    for change in changes:
        assert isinstance(change, Change) and change.system == game
        assert validate_list(change.document, catalog)["legal"], change.key
        assert change.document is not doc and change.document["sections"] is not doc["sections"]
        assert change.kind in ("remove", "add", "swap")
        assert change.size_change == {"remove": -1, "add": 1, "swap": 0}[change.kind]
        assert (change.out is None) == (change.kind == "add") and (change.into is None) == (change.kind == "remove")
        assert change.key.startswith(change.kind + ":") and change.section in system(game).section_keys
        assert change_from_key(doc, catalog, change.key).document == change.document  # a key makes the same change
    assert doc == before


@pytest.mark.parametrize("game,name", SAMPLES)
def test_candidates_are_deterministic_and_the_limit_is_respected(game, name):
    doc, catalog = _list(game, name), CATALOGS[game]
    first = [(c.key, c.document) for c in candidate_changes(doc, catalog)]
    again = [(c.key, c.document) for c in candidate_changes(copy.deepcopy(doc), _catalog(game))]
    assert first == again
    short = candidate_changes(doc, catalog, limit=5)
    assert [c.key for c in short] == [key for key, _ in first[:5]]
    assert candidate_changes(doc, catalog, limit=0) == []
    with pytest.raises(ValueError, match="limit"):
        candidate_changes(doc, catalog, limit=-1)


def test_a_hagmi_deck_of_exactly_20_weapons_gets_swaps_but_no_removal_from_its_weapons():
    changes = candidate_changes(_list("hagmi", "sample-vanguard"), CATALOGS["hagmi"], limit=200)
    kinds = {(c.kind, c.section) for c in changes}
    assert ("swap", "weapons") in kinds and ("remove", "weapons") not in kinds  # 19 兵器 breaks H1
    assert ("remove", "damage") in kinds  # the damage deck has no minimum (H8 warns only when empty)
    added = next(c for c in changes if c.kind == "add" and c.section == "weapons")
    assert added.sizes == (("weapons", 20, 21),) and added.label("en") == "Weapons: 21 cards instead of 20"
    assert added.label("ja") == "兵器 21枚（元は20枚）"
    removed = next(c for c in changes if c.kind == "remove")
    assert removed.size_change == -1 and removed.label("en").endswith("instead of 5")


def test_candidates_are_spread_over_the_cards_of_the_list():
    changes = candidate_changes(_list("hagmi", "sample-vanguard"), CATALOGS["hagmi"])
    outs = [c.out for c in changes if c.out]
    ins = [c.into for c in changes if c.into]
    assert max(outs.count(code) for code in outs) <= 2
    assert max(ins.count(code) for code in ins) <= 3
    assert {c.kind for c in changes} >= {"swap", "add"}


def test_an_illegal_list_is_refused_with_its_violations():
    doc = _list("hagmi", "sample-vanguard")
    doc["sections"]["weapons"] = doc["sections"]["weapons"][:5]  # 10 兵器
    with pytest.raises(ValueError, match="the list doctor needs a legal list") as raised:
        candidate_changes(doc, CATALOGS["hagmi"])
    assert "20" in str(raised.value)
    with pytest.raises(ValueError, match="needs a legal list"):
        candidate_changes({"schema": "hangar.list/1", "system": "mwda", "sections": {}}, CATALOGS["mwda"])


def test_candidates_never_hold_opponent_cards_nor_another_systems_cards():
    catalog = CATALOGS["hagmi"]
    opponent = set(system("hagmi").opponent_categories)
    for name in ("sample-vanguard", "sample-fortress", "akane-assault"):
        for change in candidate_changes(_list("hagmi", name), catalog, limit=500):
            if change.into is not None:
                assert change.into in catalog.cards, change.key
                assert catalog.cards[change.into].get("category") not in opponent, change.key
    for game in ("mwda", "warcaster"):
        for change in candidate_changes(_list(game, SAMPLES[2 if game == "mwda" else 3][1]), CATALOGS[game], limit=500):
            assert change.into is None or change.into in CATALOGS[game].cards


def test_a_card_the_engine_cannot_read_is_never_offered():
    broken = {"code": "T-BROKEN", "name": "壊れた作戦", "category": "tactic", "frame": "blue", "cost": 1,
              "skills": [{"kind": "no_such_skill"}]}
    catalog = _catalog("hagmi", [broken])
    changes = candidate_changes(_list("hagmi", "sample-vanguard"), catalog, limit=500)
    assert all(change.into != "T-BROKEN" for change in changes)


def test_a_weapon_that_can_never_be_paid_for_is_offered_out_within_the_limit():
    hopeless = {"code": "T-HOPELESS", "name": "絶望号", "name_en": "Hopeless", "category": "unit", "frame": "black",
                "cost": 99, "pilot": "無謀", "types": ["重装"], "firepower": "1", "armor": 1, "range": 1,
                "fuel_cost": 9, "targets": "single"}
    catalog = _catalog("hagmi", [hopeless])
    doc = _list("hagmi", "sample-vanguard")
    doc["sections"]["weapons"][-1] = {"card": "T-HOPELESS", "qty": 2}  # in place of 2 徹甲ブレード
    assert validate_list(doc, catalog)["legal"]
    changes = candidate_changes(doc, catalog, limit=30)
    out = [c for c in changes if c.out == "T-HOPELESS"]
    assert out and out[0].kind in ("swap", "remove")
    assert changes.index(out[0]) < 5, "the odd card out comes first in its round"


def test_mwda_changes_label_the_point_total_and_use_unit_wording():
    catalog = CATALOGS["mwda"]
    changes = candidate_changes(_list("mwda", "highland-line"), catalog, limit=100)
    removal = next(c for c in changes if c.kind == "remove" and c.out == "MW-017")
    assert removal.points == (292, 262) and removal.points_change == -30
    assert removal.label("en") == "Army: 2 units instead of 3; 262 points instead of 292"
    assert removal.label("ja") == "軍団 2体（元は3体）、262点（元は292点）"
    assert removal.describe(catalog.cards, "ja") == "高地連隊擲弾兵を1体抜く"
    assert removal.describe(catalog.cards, "en") == "remove 1× Highland Grenadiers"
    for change in changes:
        assert validate_list(change.document, catalog)["summary"]["points"] <= 300
        if change.kind == "swap":
            assert change.size_change == 0 and change.sizes == ()
            assert change.label("en") is None or "points" in change.label("en")


def test_a_warcaster_warjack_is_added_with_its_loadout_and_cortexes_are_never_entries():
    doc = _list("warcaster", "isa-starsteel-vanguard")
    changes = candidate_changes(doc, CATALOGS["warcaster"], limit=500)
    kinds = {CATALOGS["warcaster"].cards[c.into]["kind"] for c in changes if c.into}
    assert not kinds & {"cortex", "weapon"}
    added = next(c for c in changes if c.kind == "add" and c.into == "WC-010")
    entry = next(e for e in added.document["sections"]["force"] if e["card"] == "WC-010")
    assert entry["qty"] == 2 and entry["options"] == {"cortex": "WC-K01", "weapons": ["WC-W01", "WC-W02"]}
    rack = next(c for c in changes if c.section == "rack" and c.kind == "swap")
    assert rack.describe(CATALOGS["warcaster"].cards, "ja").endswith("に入れ替える") and "1枚" in rack.describe(
        CATALOGS["warcaster"].cards, "ja")


def test_describe_in_english_and_japanese():
    cards = CATALOGS["hagmi"].cards
    doc = _list("hagmi", "sample-vanguard")
    swap = change_from_key(doc, CATALOGS["hagmi"], "swap:tactics:HS-029>HS-032")
    assert swap.describe(cards, "en") == "replace 1× Supply Drop with 1× No Retreat"
    assert swap.describe(cards, "ja") == "補給物資 1枚を不退転 1枚に入れ替える"
    assert swap.label("en") is None
    add = change_from_key(doc, CATALOGS["hagmi"], "add:tactics:HS-032")
    assert add.describe(cards, "en") == "add 1× No Retreat" and add.describe(cards, "ja") == "不退転を1枚入れる"
    remove = change_from_key(doc, CATALOGS["hagmi"], "remove:damage:HS-056")
    assert remove.describe(cards, "en") == "remove 1× Strike of Fury"
    assert remove.describe(cards, "ja") == "怒りの一撃を1枚抜く"
    assert remove.as_dict(cards, "en")["label"] == "Damage: 4 cards instead of 5"
    for bad in ("swap:tactics:HS-029", "remove:weapons:HS-001", "add:tactics:HB-001", "jump:tactics:HS-001"):
        with pytest.raises(ValueError):
            change_from_key(doc, CATALOGS["hagmi"], bad)


# --- paired statistics -------------------------------------------------------------------------------------------


def test_identical_outcomes_give_delta_zero_and_a_zero_width_interval():
    stats = paired_difference("wwlldw", "wwlldw")
    assert stats["games"] == 6 and stats["delta"] == 0.0
    assert stats["interval"] == [0.0, 0.0] and stats["half_width"] == 0.0 and not stats["significant"]
    assert stats["base_win_rate"] == stats["win_rate"] == 0.5
    assert stats["unpaired_half_width"] > 0


def test_known_counts_give_the_known_interval():
    # 10 games: the candidate wins 2 games the list lost, and loses 1 it won: d = +1 ×2, -1 ×1, 0 ×7.
    base = "wwwwl" + "llwll"
    cand = "wwwwl" + "wwlll"
    stats = paired_difference(base, cand)
    n, s1, s2 = 10, 1, 3
    sd = math.sqrt((n * s2 - s1 * s1) / (n * (n - 1)))
    half = 1.96 * sd / math.sqrt(n)
    assert stats["delta"] == 0.1
    assert stats["half_width"] == round(half, 6)
    assert stats["interval"] == [round(0.1 - half, 6), round(0.1 + half, 6)]
    assert stats["base_win_rate"] == 0.5 and stats["win_rate"] == 0.6
    p1, p2 = 0.5, 0.6
    assert stats["unpaired_half_width"] == round(1.96 * math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / n), 6)
    assert not stats["significant"]


def test_pairing_is_narrower_when_the_outcomes_go_together():
    base = "w" * 50 + "l" * 50
    cand = "w" * 50 + "w" * 8 + "l" * 42  # the same games, 8 more wins
    stats = paired_difference(base, cand)
    assert stats["delta"] == 0.08
    assert stats["unpaired_half_width"] > stats["half_width"] * 2
    assert stats["significant"] and stats["interval"][0] > 0


def test_small_and_degenerate_samples():
    empty = paired_difference("", "")
    assert empty["games"] == 0 and empty["interval"] == [-1.0, 1.0] and not empty["significant"]
    one = paired_difference("l", "w")
    assert one["delta"] == 1.0 and one["interval"] == [0.0, 1.0] and not one["significant"]
    all_flipped = paired_difference("lll", "www")  # every game changed the same way: not a zero-width certainty
    assert all_flipped["delta"] == 1.0 and all_flipped["half_width"] > 0
    draws = paired_difference("ddd", "www")
    assert draws["base_win_rate"] == 0.0 and draws["win_rate"] == 1.0
    with pytest.raises(ValueError, match="same games"):
        paired_difference("ww", "w")
    with pytest.raises(ValueError, match="unknown outcome"):
        paired_difference("wx", "ww")


def test_verdict_sentence_says_the_verdict_the_interval_and_the_adjusted_p_in_english_and_japanese():
    catalog = CATALOGS["hagmi"]
    doc = _list("hagmi", "sample-vanguard")
    swap = change_from_key(doc, catalog, "swap:tactics:HS-029>HS-032")
    stats = {"delta": 0.041, "interval": [0.012, 0.07], "adjusted_p": 0.0031}
    assert verdict_sentence(swap, stats, catalog.cards, "en", "better") == \
        "Confirmed better: +4.1 % (95 % interval +1.2 to +7.0; adjusted p 0.003): replace 1× Supply Drop with 1× No Retreat"
    assert verdict_sentence(swap, stats, catalog.cards, "ja", "better") == \
        "改善を確認：+4.1 %（95 %区間 +1.2〜+7.0、補正後のp値 0.003）：補給物資 1枚を不退転 1枚に入れ替える"
    worse = {"delta": -0.0251, "interval": [-0.04, -0.011], "adjusted_p": 0.0004}
    remove = change_from_key(doc, catalog, "remove:damage:HS-056")
    assert verdict_sentence(remove, worse, catalog.cards, "en", "worse") == \
        "Worse: -2.5 % (95 % interval -4.0 to -1.1; adjusted p < 0.001): remove 1× Strike of Fury (Damage: 4 cards instead of 5)"
    assert verdict_sentence(remove, worse, catalog.cards, "ja", "worse") == \
        "悪化：-2.5 %（95 %区間 -4.0〜-1.1、補正後のp値 < 0.001）：怒りの一撃を1枚抜く（ダメージ 4枚（元は5枚））"
    nothing = {"delta": 0.0, "interval": [-0.00049, 0.00049], "adjusted_p": 1.0}  # no game changed of 9 000
    text = verdict_sentence(swap, nothing, catalog.cards, "en")
    assert text.startswith("No detectable effect: +0.0 % (95 % interval -0.05 to +0.05; adjusted p 1.000)")
    assert "±" not in text
    assert verdict_sentence(swap, nothing, catalog.cards, "ja").startswith("検出できる効果なし：")


def test_rank_changes_by_delta_then_key():
    catalog = CATALOGS["hagmi"]
    doc = _list("hagmi", "sample-vanguard")
    a = change_from_key(doc, catalog, "swap:tactics:HS-029>HS-032")
    b = change_from_key(doc, catalog, "add:tactics:HS-032")
    c = change_from_key(doc, catalog, "remove:damage:HS-056")
    results = [(c, {"delta": 0.01}), (a, {"delta": 0.05}), (b, {"delta": 0.05})]
    assert [change.key for change, _ in rank_changes(results)] == [b.key, a.key, c.key]
    rows = [{"key": "z", "delta": 0.1}, {"key": "a", "delta": 0.1}, {"key": "m", "stats": {"delta": 0.2}}]
    assert [row["key"] for row in rank_changes(rows)] == ["m", "a", "z"]


def test_a_long_list_stays_bounded_and_a_changed_document_shares_nothing_with_the_list(validations):
    extra = [{"code": f"T-{i:03d}", "name": f"試験作戦{i}", "category": "tactic", "frame": "blue", "cost": i % 3}
             for i in range(300)]
    catalog = _catalog("hagmi", extra)
    doc = {"schema": "hangar.list/1", "system": "hagmi", "format": "tactics-v4", "name": "long",
           "sections": {"weapons": [{"card": f"HS-0{i:02d}", "qty": 2} for i in range(1, 29)],
                        "tactics": [{"card": card["code"], "qty": 1} for card in extra],
                        "damage": [{"card": "HS-050", "qty": 2}], "secret": []}}
    before = copy.deepcopy(doc)
    changes = candidate_changes(doc, catalog, limit=30)
    assert len(changes) == 30 and doc == before
    # a long list gets fewer tries, each reading more entries: VALIDATION_ENTRIES bound them all (at least 100 tries)
    tried = validations[1:]  # the first is the list itself
    assert 100 <= len(tried) < MAX_VALIDATIONS, f"{len(tried)} changed lists validated"
    assert sum(tried) <= VALIDATION_ENTRIES + max(tried), f"{sum(tried)} entries read by the tried changes"
    for change in changes:
        for entries in change.document["sections"].values():
            for entry in entries:
                entry["qty"] = 0
    assert doc == before
