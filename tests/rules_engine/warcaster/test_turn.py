"""The nine-phase turn (W10), pulse rounds and victory (W16), played through the public state API."""
from __future__ import annotations

from rules_engine.warcaster.state import invariant_problems

from rules_engine.warcaster import combat

import random

import pytest

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.warcaster.game import WarcasterGame
from tests.rules_engine.warcaster import CARDS, LISTS, OPPONENTS, events, model_of, table, unit_of

# W10 phase of each event kind that only one phase logs
PHASE_OF = {"charge": 2, "recall": 2, "activate": 4, "gate_paid": 6, "deploy": 6,
            "gate": 7, "discard": 8}
SOLO = {"card": "WC-006", "qty": 1}
SQUAD = {"card": "WC-004", "qty": 1}


def _game(opponent="goldfish", lst="isa-starsteel-vanguard", **options):
    return WarcasterGame(LISTS[lst], CARDS, OPPONENTS[opponent], options or None)


def _played(opponent="isa-thunder-lancers", seed=3, policy="warcaster-greedy"):
    state = _game(opponent).new_initial_state(random.Random(seed))
    chooser = get_policy(policy)
    return play_out(state, [chooser, chooser], random.Random(seed + 1))


def test_w10_phases_come_in_order_every_turn():
    """W10: charging → cypher → activation → cypher → deployment → gate placement → discard → draw, each turn."""
    state = _played()
    turns: dict[int, list[tuple[int, str]]] = {}
    for event in state.events:
        if event.kind == "turn_start":
            turns[event.turn] = []
        elif event.turn in turns:
            phase = PHASE_OF.get(event.kind)
            if event.kind == "cypher":
                phase = 5 if any(p >= 4 for p, _ in turns[event.turn]) else 3
            elif event.kind == "draw" and "source" not in event.data:
                phase = 9
            if phase is not None and event.player == _turn_player(state, event.turn):
                turns[event.turn].append((phase, event.kind))
    assert len(turns) == 30
    seen_phases = set()
    for turn, phases in turns.items():
        numbers = [p for p, _ in phases]
        assert numbers == sorted(numbers), (turn, phases)
        assert numbers[-1] == 9  # every turn ends with the draw
        seen_phases.update(numbers)
    assert {2, 3, 4, 5, 6, 7, 9} <= seen_phases


def _turn_player(state, turn):
    return next(e.player for e in state.events if e.kind == "turn_start" and e.turn == turn)


def test_w10_first_decision_is_the_gate_when_nothing_is_on_the_table():
    """W10: with no unit and no gate on the table, charging, cyphers, activation and deployment have nothing to
    do (played automatically); the first choice is where to place a void gate."""
    state = _game("isa-thunder-lancers").new_initial_state(random.Random(1))
    assert state.phase == "gate"
    assert ("pass",) in state.legal_actions() and ("gate", 0) in state.legal_actions()
    state.apply(("gate", 1))
    gate, = events(state, "gate")
    assert gate.data["arc"] == state.options["gate_start_arc"]


def test_w10_charging_puts_one_arc_or_recalls_it():
    """W10 phase 2 (more in test_charging.py): a charge of 1 arc, or recalls (1 arc each) until the phase ends."""
    state = _game().new_initial_state(random.Random(2))
    side = state.sides[0]
    state.player, state.phase = 0, "gate"
    state.apply(("gate", 0))
    pool = side.pool
    state.player, state.phase, state._legal = 0, "charge", None
    assert ("charge", "gate", 0) in state.legal_actions()
    state.apply(("charge", "gate", 0))
    assert (side.gates[0].arc, side.pool) == (state.options["gate_start_arc"] + 1, pool - 1)
    state.player, state.phase, state._legal = 0, "charge", None
    for _ in range(state.options["gate_start_arc"] + 1):
        state.apply(("recall", "gate", 0, 1))
    assert (side.gates[0].arc, side.pool) == (0, pool + state.options["gate_start_arc"])
    assert not invariant_problems(state)


def test_w10_deployment_pays_the_gate_arc_and_places_models_near_the_gate():
    state = _game().new_initial_state(random.Random(2))
    side = state.sides[0]
    state.player, state.phase = 0, "gate"
    state.apply(("gate", 1))
    state.player, state.phase, state._legal = 0, "deploy", None
    squad = next(u for u in state.reserves(0) if u.spec.code == "WC-004")
    gate = side.gates[0]
    assert ("deploy", squad.uid, 0) in state.legal_actions()
    assert all(state.units[a[1]].spec.cst <= gate.arc for a in state.legal_actions() if a[0] == "deploy")
    state.apply(("deploy", squad.uid, 0))
    assert gate.arc == state.options["gate_start_arc"] - squad.spec.cst
    assert squad.status == "board" and len(squad.alive_models) == 5
    for model in squad.models:
        assert ((model.x - gate.x) ** 2 + (model.y - gate.y) ** 2) ** 0.5 <= 2 * state.options["deploy_range"] + 0.01
    assert not invariant_problems(state)


def test_w10_activation_is_one_unit_plus_one_solo():
    """W10 phase 4: one unit that has not activated, then one solo."""
    state = table([(SQUAD, [(5, 5)]), (SOLO, [(8, 5)]), ({"card": "WC-007", "qty": 1}, [(11, 5)])],
                  [("WC-011", [(25, 25)])])
    state.player, state.phase, state._legal = 0, "activate", None
    squad = unit_of(state, 0, 0)
    state.apply(("activate", squad.uid))
    state.apply(("move", "hold"))  # nothing in reach: waiting is forced, played automatically
    assert state.phase == "solo"
    assert {a[1] for a in state.legal_actions() if a[0] == "activate"} == {unit_of(state, 0, 1).uid, unit_of(state, 0, 2).uid}
    state.apply(("activate", unit_of(state, 0, 1).uid))
    state.apply(("move", "hold"))
    assert state.phase != "solo" and not unit_of(state, 0, 2).activated


def test_w10_ready_refreshes_only_when_every_unit_has_activated():
    state = table([(SQUAD, [(5, 5)]), (SOLO, [(8, 5)])], [("WC-011", [(25, 25)])])
    squad, solo = unit_of(state, 0, 0), unit_of(state, 0, 1)
    squad.activated = True
    state._start_turn(0)
    assert squad.activated and not events(state, "ready")
    solo.activated = True
    state._start_turn(0)
    assert not squad.activated and not solo.activated and events(state, "ready")


def test_w10_draw_up_to_the_hand_limit_reshuffling_the_discard():
    state = _game().new_initial_state(random.Random(4))
    side = state.sides[0]
    side.discard, side.deck, side.hand = side.deck + side.hand[:3], [], side.hand[3:]
    state.player, state.phase, state._legal = 0, "discard", None
    state.apply(("pass",))
    assert len(side.hand) == state.options["hand_limit"]
    assert events(state, "reshuffle")


def test_w10_discard_phase_is_one_optional_discard_and_the_limit_applies_when_drawing_up():
    """W10 phase 8: 好きなサイファーカードを1枚、破棄することが出来る (seed 003): one discard if you like, even above the
    hand limit; phase 9 then draws up to the limit, so a hand above it draws nothing."""
    state = _game().new_initial_state(random.Random(4))
    side = state.sides[0]
    side.hand.append(side.deck.pop())
    above = len(side.hand)
    state.player, state.phase, state._legal = 0, "discard", None
    assert ("pass",) in state.legal_actions()
    state.apply(("pass",))
    assert len(side.hand) == above > state.options["hand_limit"] and state.phase != "discard"
    again = _game().new_initial_state(random.Random(4))
    again.sides[0].hand += [again.sides[0].deck.pop(), again.sides[0].deck.pop()]
    again.player, again.phase, again._legal = 0, "discard", None
    again.apply(again.legal_actions()[1])  # one discard, and the turn goes on to the draw
    assert len(again.sides[0].hand) == state.options["hand_limit"] + 1 and again.phase != "discard"


def test_w10_option_discard_to_hand_limit_keeps_the_old_reading():
    state = _game(discard_to_hand_limit=True).new_initial_state(random.Random(4))
    side = state.sides[0]
    side.hand.append(side.deck.pop())
    state.player, state.phase, state._legal = 0, "discard", None
    assert ("pass",) not in state.legal_actions()
    state.apply(state.legal_actions()[0])
    assert len(side.hand) == state.options["hand_limit"]


def test_w10_pulse_rounds_are_five_turns_each_and_the_game_three_rounds():
    state = _played("goldfish")
    starts = events(state, "turn_start")
    assert len(starts) == 30 and len(events(state, "round_end")) == 3
    for rnd in (1, 2, 3):
        players = [e.player for e in starts if e.data["round"] == rnd]
        assert players.count(0) == 5 and players.count(1) == 5
        assert all(a != b for a, b in zip(players, players[1:]))  # players alternate
    over, = events(state, "game_over")
    assert over.data["reason"] == "rounds"


def test_w16_destroying_a_unit_scores_its_cst_for_the_enemy():
    state = table([(SOLO, [(5, 5)])], [("WC-004", [(20, 20), (22, 20)]), ("WC-011", [(25, 25)])])
    for model in unit_of(state, 1, 0).alive_models:
        combat.deal_damage(state, model, 1, "test", 0)
    assert state.sides[0].vp == 3 and unit_of(state, 1, 0).status == "destroyed"
    combat.deal_damage(state, model_of(state, 0), 5, "test", 0)  # own fire still scores for the enemy
    assert state.sides[1].vp == 2


def test_w16_centre_objective_scores_two_points_uncontested():
    state = table([(SOLO, [(15, 15)])], [("WC-011", [(25, 25)])])
    combat.score_objective(state)
    assert (state.sides[0].vp, state.sides[1].vp) == (2, 0)
    model_of(state, 1).x, model_of(state, 1).y = 17.5, 15  # enemy within 3″: contested
    combat.score_objective(state)
    assert (state.sides[0].vp, state.sides[1].vp) == (2, 0)


def test_w16_a_side_with_nothing_left_ends_the_game_and_more_points_win():
    state = table([(SOLO, [(15, 4)])], [("WC-006", [(15, 20)])])
    state.sides[0].vp = 0
    combat.deal_damage(state, model_of(state, 1), 5, "test", 0)
    state._check_annihilation()
    assert state.is_terminal() and state.winner == 0 and state.returns() == (1.0, -1.0)
    assert events(state, "game_over")[0].data["reason"] == "annihilation"


def test_w16_equal_points_is_a_draw():
    state = table([(SOLO, [(15, 4)])], [("WC-006", [(15, 20)])])
    state._finish("rounds")
    assert state.winner is None and state.returns() == (0.0, 0.0)


@pytest.mark.parametrize("option, value, field", [("hand_limit", -1, "hand_limit"), ("blast_damage", "all", "blast_damage"),
                                                  ("gates_per_player", 2, "unknown Warcaster option")])
def test_bad_options_are_refused_naming_them(option, value, field):
    with pytest.raises(ValueError, match=field):
        WarcasterGame(LISTS["isa-starsteel-vanguard"], CARDS, OPPONENTS["goldfish"], {option: value})
