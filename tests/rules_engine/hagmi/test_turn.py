"""Turn structure (RULES.md §1.3): setup, 兵站 draw, main phase payments and fuel, end phase, losing (H9); H20 秘策."""
from __future__ import annotations

import random

import pytest

from rules_engine.core.catalog import CardDataError

from rules_engine.hagmi.game import HagmiGame
from tests.rules_engine.hagmi import CATALOG, LISTS, OPPONENTS, act, cards, damage_deck, duel, hand, kinds, to_battle, unit

DECKS = {"weapons": [{"card": "HS-009", "qty": 20}], "tactics": [{"card": "HS-044", "qty": 20}],
         "damage": [{"card": "HS-049", "qty": 3}]}


def test_setup_opening_hand_is_two_weapons_and_two_tactics_by_default():
    state = duel(p0=DECKS)
    drawn = kinds(state, "draw")[:4]
    assert [d["deck"] for d in drawn] == ["weapons", "weapons", "tactics", "tactics"]


def test_setup_opening_split_option_changes_the_opening_hand():
    state = duel({"opening_split": "3/1"}, p0=DECKS)
    assert [d["deck"] for d in kinds(state, "draw")[:4]] == ["weapons"] * 3 + ["tactics"]


def test_logistics_draw_two_dice_low_tactics_high_weapons_doubles_draw_one_more():
    for seed in range(40):
        game = HagmiGame({"sections": DECKS}, CATALOG, OPPONENTS["goldfish"])
        state = game.new_initial_state(random.Random(seed))
        dice = kinds(state, "logistics")[0]["dice"]
        decks = [d["deck"] for d in kinds(state, "draw")[4:]]
        expected = ["weapons" if die >= 4 else "tactics" for die in dice]
        if dice[0] == dice[1]:
            expected.append(expected[0])
        assert decks == expected
        assert len(state.players[0].hand) == 4 + len(expected)


def test_drawing_from_an_empty_deck_draws_nothing():
    state = duel()
    assert state.players[0].hand == [] and kinds(state, "draw") == []


def test_main_phase_unit_cost_is_paid_by_discarding_cards_that_become_its_fuel():
    state = duel()
    guren, *payment = hand(state, 0, "HS-001", "HS-044", "HS-043")
    act(state, ("play", guren, tuple(sorted(payment, key=lambda u: state.card(u).cost)), None))
    placed = state.find_unit(guren)
    assert sorted(placed.fuel) == sorted(payment) and state.players[0].hand == []


def test_refuel_never_goes_above_the_units_cost():
    state = duel()
    porter = unit(state, 0, "HS-001", fuel=1)
    state.players[0].weapons = cards(state, *["HS-009"] * 5)
    supply, = hand(state, 0, "HS-029")
    act(state, ("play", supply, (), porter.uid))
    assert len(porter.fuel) == 2 and len(state.players[0].weapons) == 4


def test_order_goes_to_discard_and_facility_stays():
    state = duel()
    briefing, dock, *pay = hand(state, 0, "HS-044", "HS-048", "HS-009", "HS-009")
    act(state, ("play", briefing, (), None))
    act(state, ("play", dock, tuple(pay), None))
    assert briefing in state.players[0].discard and state.players[0].facilities == [dock]


def test_facility_static_armor_mod_applies_only_to_its_types():
    state = duel()
    heavy, light = unit(state, 0, "HS-003"), unit(state, 0, "HS-009")
    state.players[0].facilities += cards(state, "HS-048")
    assert state.armor(heavy) == 3 and state.armor(light) == 2


def test_H9_damage_to_a_player_turns_up_damage_cards_and_resolves_their_counter_skill():
    state = duel()
    attacker = unit(state, 0, "HS-001")
    damage_deck(state, 1, "HS-049", "HS-052")  # 誘爆 on top: 1 damage to the attacker
    to_battle(state)
    act(state, ("attack", attacker.uid, (("player", 1),)))
    turned = [d["card"] for d in kinds(state, "damage_player")]
    assert turned == ["HS-052", "HS-049", None] and attacker.damage == 1  # 3 firepower, 2 cards: the 3rd is lost
    assert not state.is_terminal()  # H9: the deck was not empty when the damage was taken


def test_H9_damage_with_an_empty_damage_deck_loses_the_game():
    state = duel()
    attacker = unit(state, 0, "HS-009")
    to_battle(state)
    act(state, ("attack", attacker.uid, (("player", 1),)))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)


def test_counter_skill_damage_to_the_attacker():
    state = duel()
    attacker = unit(state, 0, "HS-022")  # armor 1
    damage_deck(state, 1, *["HS-049"] * 3, "HS-052")
    to_battle(state)
    act(state, ("attack", attacker.uid, (("player", 1),)))
    assert state.find_unit(attacker.uid) is None and attacker.uid in state.players[0].discard


def test_damage_clears_at_end_of_turn_by_default():
    state = duel()
    target = unit(state, 1, "HS-008")
    attacker = unit(state, 0, "HS-009")
    to_battle(state)
    act(state, ("attack", attacker.uid, (target.uid,)))
    act(state, ("no_defend",))
    assert target.damage == 1  # 2 firepower − 1 (鉄壁号 reduces by 1)
    act(state, ("end",))
    assert target.damage == 0


def test_damage_clears_never_option_keeps_damage():
    state = duel({"damage_clears": "never"})
    target, attacker = unit(state, 1, "HS-008"), unit(state, 0, "HS-009")
    to_battle(state)
    act(state, ("attack", attacker.uid, (target.uid,)))
    act(state, ("no_defend",))
    act(state, ("end",))
    assert target.damage == 1


def test_turn_limit_ends_the_game_as_a_draw():
    state = duel({"max_turns": 3})
    for _ in range(3):
        act(state, ("battle",))
        act(state, ("end",))
    assert state.is_terminal() and state.winner is None and state.returns() == (0.0, 0.0)


def test_H20_usable_from_secret_card_plays_from_secret_but_not_from_hand():
    state = duel()
    target = unit(state, 0, "HS-009")
    in_secret = cards(state, "HS-058")[0]
    state.players[0].secret.append(in_secret)
    in_hand, = hand(state, 0, "HS-058")
    plays = [a for a in state.legal_actions() if a[0] == "play"]
    assert ("play", in_secret, (), target.uid) in plays
    assert all(a[1] != in_hand for a in plays)


def test_H20_secret_cards_are_not_playable_unless_they_say_so():
    state = duel()
    state.players[0].secret += cards(state, "HS-057")  # a white unit: only through a rule that uses 秘策
    hand(state, 0, *["HS-009"] * 5)
    assert all(a[1] not in state.players[0].secret for a in state.legal_actions() if a[0] == "play")


def test_H20_opponent_sees_only_the_count_and_deck_kind_of_secret_cards():
    state = duel()
    state.players[0].secret += cards(state, "HS-057", "HS-058", "HS-059")
    assert state.secret_view(0, 0) == ["HS-057", "HS-058", "HS-059"]
    assert state.secret_view(1, 0) == sorted(["兵器", "作戦", "ダメージ"])


def test_bad_list_names_the_section_and_card():
    with pytest.raises(CardDataError) as error:
        HagmiGame({"sections": {"weapons": [{"card": "NOPE-1", "qty": 2}]}}, CATALOG, OPPONENTS["goldfish"])
    assert "NOPE-1" in str(error.value) and "sections.weapons[0]" in str(error.value)
    with pytest.raises(ValueError, match="opening_split"):
        HagmiGame(LISTS["akane-assault"], CATALOG, OPPONENTS["goldfish"], {"opening_split": "two"})
    with pytest.raises(ValueError, match="unknown HAGMI engine options: max_turn"):
        HagmiGame(LISTS["akane-assault"], CATALOG, OPPONENTS["goldfish"], {"max_turn": 3})
