"""RULES.md §1.3 as the public rules say it: H9 damage to a player (one damage card per
point; since HAGMI!02 a player loses only to damage taken with the damage deck already empty), and the turn-flow
readings the sources leave open, each an option: who goes first (先攻), whether a unit attacks in the turn it
enters, whether the first player has a battle phase in the game's first turn."""
from __future__ import annotations

import random

import pytest

from rules_engine.hagmi.game import HagmiGame
from rules_engine.hagmi.simulation import game_record
from tests.rules_engine.hagmi import CATALOG, LISTS, OPPONENTS, act, damage_deck, duel, hand, kinds, to_battle, unit

ONE_KIND = {"weapons": [{"card": "HS-009", "qty": 20}], "tactics": [{"card": "HS-044", "qty": 20}],
            "damage": [{"card": "HS-049", "qty": 5}]}


def _attack_player(state, attacker) -> None:
    to_battle(state)
    act(state, ("attack", attacker.uid, (("player", 1),)))


def test_H9_each_point_of_damage_turns_up_one_damage_card():
    state = duel()
    attacker = unit(state, 0, "HS-001")  # 3 firepower
    damage_deck(state, 1, *["HS-055"] * 5)
    _attack_player(state, attacker)
    assert [d["card"] for d in kinds(state, "damage_player")] == ["HS-055"] * 3
    assert len(state.players[1].damage_deck) == 2 and not state.is_terminal()


def test_H9_damage_past_the_last_damage_card_is_lost_and_the_game_goes_on():
    """「ダメージデッキが存在しない時にダメージを受ける場合」(HAGMI!02): a 3-point hit on 2 cards empties the deck;
    the third point is lost; the next damage, taken with the deck already empty, loses."""
    state = duel()
    guren, hound = unit(state, 0, "HS-001"), unit(state, 0, "HS-009")
    damage_deck(state, 1, "HS-049", "HS-055")
    _attack_player(state, guren)
    assert kinds(state, "damage_player") == [{"card": "HS-055"}, {"card": "HS-049"}, {"card": None, "lost": 1}]
    assert not state.is_terminal() and state.players[1].damage_deck == [] and state.decision == ("battle", 0)
    assert game_record(state)["damage_by_turn"] == [2]  # the lost point is not counted as damage dealt
    act(state, ("attack", hound.uid, (("player", 1),)))
    assert state.is_terminal() and state.winner == 0 and kinds(state, "damage_player")[-1] == {"card": None}


def test_H9_the_second_hit_of_a_multi_attack_finds_the_emptied_deck_and_loses():
    state = duel()
    fangs = unit(state, 0, "HS-016")  # 2×2
    damage_deck(state, 1, "HS-055", "HS-055")
    _attack_player(state, fangs)
    assert [d["card"] for d in kinds(state, "damage_player")] == ["HS-055", "HS-055", None]
    assert state.winner == 0


def test_H9_player_loss_cannot_turn_up_option_is_the_HAGMI_01_rule():
    """「ダメージを受ける際にダメージデッキからカードが引けない場合」(HAGMI!01): the point that finds no card loses."""
    state = duel({"player_loss": "cannot_turn_up"})
    attacker = unit(state, 0, "HS-001")
    damage_deck(state, 1, "HS-049", "HS-055")
    _attack_player(state, attacker)
    assert [d["card"] for d in kinds(state, "damage_player")] == ["HS-055", "HS-049", None] and state.winner == 0


def test_first_player_is_the_list_by_default_and_the_opponent_or_random_by_option():
    def first(options, seed=0):
        game = HagmiGame({"sections": ONE_KIND}, CATALOG, {"kind": "deck", "list": {"sections": ONE_KIND}}, options)
        state = game.new_initial_state(random.Random(seed))
        return next(e.player for e in state.events if e.kind == "turn_start"), state

    assert first({})[0] == 0 and first({})[1].decision == ("main", 0)
    player, state = first({"first_player": "opponent"})
    assert player == 1 and state.decision == ("main", 1) and len(kinds(state, "logistics")) == 1
    assert {first({"first_player": "random"}, seed)[0] for seed in range(20)} == {0, 1}
    assert [first({"first_player": "random"}, 5)[0] for _ in range(3)] == [first({"first_player": "random"}, 5)[0]] * 3


def test_first_player_cannot_be_the_beasts_and_bad_values_are_refused():
    with pytest.raises(ValueError, match="first_player.*players always take their turns first"):
        HagmiGame(LISTS["akane-assault"], CATALOG, OPPONENTS["coop-ironshell-cradle"], {"first_player": "random"})
    for name, bad in (("first_player", "me"), ("player_loss", "never"), ("attack_on_entry", "yes"),
                      ("first_turn_battle", 1)):
        with pytest.raises(ValueError, match=f'option "{name}": expected one of'):
            HagmiGame(LISTS["akane-assault"], CATALOG, OPPONENTS["goldfish"], {name: bad})


def test_a_unit_attacks_in_the_turn_it_enters_by_default():
    state = duel()
    hound, payment = hand(state, 0, "HS-009", "HS-044")
    act(state, ("play", hound, (payment,), None))
    to_battle(state)
    assert ("attack", hound, (("player", 1),)) in state.legal_actions()


def test_attack_on_entry_false_a_unit_first_attacks_in_its_controllers_next_turn():
    state = duel({"attack_on_entry": False})
    veteran = unit(state, 0, "HS-009")  # already on the battlefield
    hound, payment = hand(state, 0, "HS-009", "HS-044")
    act(state, ("play", hound, (payment,), None))
    to_battle(state)
    attackers = {a[1] for a in state.legal_actions() if a[0] == "attack"}
    assert attackers == {veteran.uid}
    act(state, ("end",))  # player 1's turn
    act(state, ("battle",))
    act(state, ("end",))  # player 0's next turn: the standby clears the mark
    to_battle(state)
    assert {a[1] for a in state.legal_actions() if a[0] == "attack"} == {veteran.uid, hound}


def test_first_turn_battle_false_the_first_player_has_no_battle_phase_in_turn_1():
    state = duel({"first_turn_battle": False})
    hound = unit(state, 0, "HS-009")
    damage_deck(state, 1, "HS-055")
    act(state, ("battle",))  # turn 1: the main phase ends the turn
    assert kinds(state, "battle_phase") == [] and state.turn == 2 and state.decision == ("main", 1)
    act(state, ("battle",))  # turn 2: the second player battles as usual
    assert state.decision == ("battle", 1)
    act(state, ("end",))
    to_battle(state)
    assert ("attack", hound.uid, (("player", 1),)) in state.legal_actions()


def test_first_turn_draw_the_first_player_rolls_logistics_in_turn_1_by_default_and_skips_it_by_option():
    """The sources name no exception to the draw step (兵站) in the game's first turn [interpretation]; option
    first_turn_draw = false is the handicap some card games give 先攻: no 兵站 in turn 1, the second player's
    first turn as usual."""
    def opening(options):
        game = HagmiGame({"sections": ONE_KIND}, CATALOG, {"kind": "deck", "list": {"sections": ONE_KIND}}, options)
        return game.new_initial_state(random.Random(3))

    state = opening({})
    assert len(kinds(state, "logistics")) == 1 and len(state.players[0].hand) > 4
    state = opening({"first_turn_draw": False})
    assert kinds(state, "logistics") == [] and len(state.players[0].hand) == 4 and state.decision == ("main", 0)
    act(state, ("battle",))
    act(state, ("end",))  # the second player's first turn: 兵站 as usual
    assert [e.player for e in state.events if e.kind == "logistics"] == [1] and len(state.players[1].hand) > 4
