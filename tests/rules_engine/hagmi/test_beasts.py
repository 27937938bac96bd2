"""機獣討滅戦線 (RULES.md §1.6): the charge procedure H30 steps 1–8, H31 summons, H32 beast attacks, H33."""
from __future__ import annotations

import random

from rules_engine.core.catalog import Catalog
from rules_engine.hagmi.beasts import beast_target, charge, summon
from rules_engine.hagmi.damage import damage_unit
from rules_engine.hagmi.game import HagmiGame
from rules_engine.hagmi.state import Unit
from rules_engine.hagmi.zones import remove_unit
from tests.rules_engine.hagmi import PACKAGE, TEST_CARDS, act, cards, damage_deck, kinds, unit


def beast(code, cost, energy=0, life=0, order=5, skills=(), **extra):
    return {"code": code, "name": code, "category": "beast", "cost": cost, "firepower": "1", "armor": 2,
            "energy": energy, "life_cores": life, "action_order": order, "skills": list(skills), **extra}


BEASTS = [
    beast("B-0", 0), beast("B-1", 1), beast("B-2", 2), beast("B-3", 3),
    beast("B-E2", 0, energy=2), beast("B-E1", 1, energy=1),
    beast("B-L7", 0, life=2, order=7), beast("B-L3", 0, life=2, order=3),
    beast("B-HIT", 0, order=1, skills=[{"kind": "deal_damage", "trigger": "on_enter", "amount": 1, "target": "all_opponents"}]),
    beast("B-CHG", 0, order=2, skills=[{"kind": "charge", "trigger": "on_enter", "amount": 1}]),
    beast("B-QUEEN", 0, order=4, skills=[{"kind": "summon_beast", "trigger": "on_enter", "count": 1, "from": "discard", "max_cost": 1}]),
    beast("B-SHELL", 0, skills=[{"kind": "reduce_damage", "trigger": "static", "amount": 1, "target": "self"}],
          bounty={"kind": "draw", "count": 2}),
    beast("B-CORE", 0, life=1),
    {"code": "M-T", "name": "試験母艦", "category": "mothership", "terrain": "land", "cores": 6,
     "attrition": [{"at": 4, "effects": [{"kind": "charge", "amount": 1}]},
                   {"at": 5, "effects": [{"kind": "deal_damage", "amount": 1, "target": "all_opponents"}]}]},
]
CATALOG = Catalog.build("hagmi", PACKAGE["cards"] + TEST_CARDS + BEASTS, PACKAGE["formats"])


def coop(*deck_top_first, options=None, damage=5):
    """A co-op game whose 機獣 deck is exactly `deck_top_first`; player 0 has `damage` damage cards."""
    opponent = {"kind": "coop", "mothership": "M-T", "beast_deck": [{"card": "B-0", "qty": 1}]}
    sections = {"damage": [{"card": "HS-049", "qty": damage}]} if damage else {}
    state = HagmiGame({"sections": sections}, CATALOG, opponent, options).new_initial_state(random.Random(0))
    side = state.beasts
    side.removed += side.deck  # keep every card in one zone: the placeholder leaves the game
    side.deck = list(reversed(cards(state, *deck_top_first)))
    return state


def chargers(state):
    return [state.card(u).code for u in state.beasts.chargers]


def on_field(state):
    return [state.card(b.uid).code for b in state.beasts.beasts]


def test_H30_step2_cost_greater_than_chargers_becomes_a_charger():
    state = coop("B-1", "B-2", "B-3")
    charge(state, 3)  # 1 > 0, 2 > 1, 3 > 2
    assert chargers(state) == ["B-1", "B-2", "B-3"] and on_field(state) == []


def test_H30_step2_cost_equal_appears_by_default_and_option_equal_cost_charger():
    state = coop("B-1", "B-1")
    charge(state, 2)  # 1 > 0 → charger; 1 = 1 → appears
    assert chargers(state) == ["B-1"] and on_field(state) == ["B-1"]
    state = coop("B-1", "B-1", options={"equal_cost": "charger"})
    charge(state, 2)
    assert chargers(state) == ["B-1", "B-1"] and on_field(state) == []


def test_H30_step2_cost_less_sets_aside_and_energy_discards_newest_chargers():
    state = coop("B-1", "B-2", "B-3", "B-E2")
    charge(state, 4)
    assert chargers(state) == ["B-1"] and on_field(state) == ["B-E2"]
    assert [state.card(u).code for u in state.beasts.discard] == ["B-3", "B-2"]  # newest first


def test_H30_steps_3_4_appearing_beasts_enter_only_after_every_reveal():
    state = coop("B-1", "B-0", "B-E1", "B-3")
    charge(state, 4)
    order = [e.kind for e in state.events if e.kind in ("charge_reveal", "beast_enter")]
    assert order == ["charge_reveal"] * 4 + ["beast_enter"] * 2
    # B-E1 (cost 1) was compared with 1 charger (B-0 was only set aside, not on the battlefield): it appears
    assert on_field(state) == ["B-0", "B-E1"] and chargers(state) == ["B-3"]


def test_H30_step5_life_cores_in_action_order():
    state = coop("B-1", "B-L7", "B-L3")
    state.beasts.cores = 3
    charge(state, 3)
    held = {state.card(b.uid).code: b.cores for b in state.beasts.beasts}
    assert held == {"B-L3": 2, "B-L7": 1} and state.beasts.cores == 0


def test_H30_step6_on_enter_in_action_order_and_nested_charge_sets_aside_step7():
    state = coop("B-1", "B-CHG", "B-HIT", "B-CORE")
    damage_deck(state, 0, "HS-049")
    charge(state, 3)
    log = [(e.kind, e.data.get("card")) for e in state.events if e.kind in ("damage_player", "charge_reveal", "beast_enter", "life_cores")]
    assert log == [
        ("charge_reveal", "B-1"), ("charge_reveal", "B-CHG"), ("charge_reveal", "B-HIT"),
        ("beast_enter", "B-CHG"), ("beast_enter", "B-HIT"),
        ("damage_player", "HS-049"),  # B-HIT acts first (action order 1)
        ("charge_reveal", "B-CORE"),  # B-CHG's charge: steps 1–2 only, B-CORE is set aside
        ("beast_enter", "B-CORE"), ("life_cores", "B-CORE"),  # step 7, then step 5 for it
        ("damage_player", "HS-049"),  # step 8: 6 → 5 cores reaches the attrition at 5
    ]


def test_H30_step6_nested_summon_is_set_aside_and_H31_takes_no_life_cores():
    state = coop("B-1", "B-QUEEN")
    core_beast = cards(state, "B-CORE")[0]  # cost 0 with a life core, in the 機獣 discard
    state.beasts.discard.append(core_beast)
    charge(state, 2)
    assert on_field(state) == ["B-QUEEN", "B-CORE"]
    assert state.find_unit(core_beast).cores == 0 and state.beasts.cores == 6


def test_H30_step8_attrition_larger_threshold_first_and_a_charge_restarts_at_step1():
    state = coop("B-1", "B-L3", "B-0")
    damage_deck(state, 0, "HS-049", "HS-049")
    state.beasts.cores = 6
    charge(state, 2)  # B-1 charger; B-L3 appears and takes 2 cores → 4 left: both abilities reached
    log = [(e.kind, e.data.get("at", e.data.get("card"))) for e in state.events
           if e.kind in ("attrition", "charge_reveal", "damage_player")]
    assert log[2:] == [("attrition", 5), ("damage_player", "HS-049"), ("attrition", 4), ("charge_reveal", "B-0")]
    assert on_field(state) == ["B-L3", "B-0"]


def test_H31_summon_skips_cost_check_chargers_and_life_cores_but_on_enter_fires():
    state = coop("B-3", "B-3")
    damage_deck(state, 0, "HS-049")
    charge(state, 1)  # one charger
    state.beasts.deck += cards(state, "B-HIT")
    state.beasts.discard += cards(state, "B-CORE")
    summon(state, 1, "beast_deck", None)
    summon(state, 1, "discard", 1)
    assert chargers(state) == ["B-3"] and on_field(state) == ["B-HIT", "B-CORE"]
    assert all(b.cores == 0 for b in state.beasts.beasts) and state.beasts.cores == 6
    assert len(kinds(state, "damage_player")) == 1  # B-HIT's on_enter


def _beast_turn(state):
    act(state, ("battle",))
    act(state, ("end",))


def test_H32_beasts_attack_players_never_units_and_may_be_intercepted():
    state = coop("B-3", "B-3")
    state.beasts.deck = []
    mine = unit(state, 0, "T-BIG")
    b = cards(state, "B-SHELL")[0]
    state.beasts.beasts.append(Unit(uid=b, owner=1, presence=99))
    _beast_turn(state)
    assert state.decision == ("defend", 0)
    assert state.legal_actions() == [("intercept", mine.uid), ("no_defend",)]
    act(state, ("no_defend",))
    assert len(kinds(state, "damage_player")) == 1 and mine.damage == 0


def test_H32_down_beast_loses_skills_but_bounty_still_rewards_and_it_recovers_on_its_turn():
    state = coop("B-3")
    state.players[0].weapons = cards(state, *["HS-009"] * 3)
    shell = Unit(uid=cards(state, "B-SHELL")[0], owner=1, presence=99)
    state.beasts.beasts.append(shell)
    shell.down = True
    damage_unit(state, shell, 1, unreducible=False, by_player=0)
    assert shell.damage == 1  # not reduced: a down 機獣 has no skills
    damage_unit(state, shell, 1, unreducible=False, by_player=0)
    assert state.find_unit(shell.uid) is None and len(state.players[0].hand) == 2  # 賞金首 reward: draw 2
    other = Unit(uid=cards(state, "B-SHELL")[0], owner=1, presence=100, down=True)
    state.beasts.beasts.append(other)
    _beast_turn(state)
    assert other.down is False


def test_H12_dismantled_beast_leaves_the_game_with_its_cores_and_no_bounty():
    state = coop("B-3")
    state.players[0].weapons = cards(state, *["HS-009"] * 3)
    shell = Unit(uid=cards(state, "B-SHELL")[0], owner=1, presence=99, cores=2)
    state.beasts.beasts.append(shell)
    remove_unit(state, shell, dismantle=True)
    assert shell.uid in state.beasts.removed and state.players[0].hand == []


def test_H33_players_win_when_no_cores_are_left_anywhere():
    state = coop("B-3")
    state.beasts.cores = 0
    holder = Unit(uid=cards(state, "B-CORE")[0], owner=1, presence=99, cores=1)
    state.beasts.beasts.append(holder)
    damage_unit(state, holder, 2, unreducible=False, by_player=0)
    assert state.is_terminal() and state.winner == 0 and state.returns() == (1.0, -1.0)


def test_H33_players_lose_when_taking_damage_with_an_empty_damage_deck():
    state = coop("B-HIT", damage=0)
    charge(state, 1)
    assert state.is_terminal() and state.winner == 1


def test_H33_beasts_target_the_player_with_most_damage_cards():
    state = coop("B-3")
    assert beast_target(state) == 0


def test_beast_turn_runs_a_charge_phase_each_turn():
    state = coop("B-3", "B-2", "B-1")
    _beast_turn(state)
    assert chargers(state) == ["B-3"] and kinds(state, "charge") == [{"amount": 1}]  # top card only
