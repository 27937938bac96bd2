"""The cypher vocabulary: every cypher of the bundled package can be played and does what its effects say."""
from __future__ import annotations

from rules_engine.warcaster.state import invariant_problems

from rules_engine.warcaster import combat

import pytest

from rules_engine.warcaster import cyphers
from rules_engine.warcaster.models import Catalog, compile_rack
from tests.rules_engine.warcaster import CARDS, Scripted, events, model_of, table, unit_of

ALL_CYPHERS = sorted(code for code, card in CARDS.items() if card["kind"] == "cypher")
EVENT_OF = {"attack": "attack", "damage": "damage", "apply_effect": "effect", "remove_effect": "effect",
            "heal": "heal", "move": "move", "arc": "arc", "draw": "draw", "shield": "shield", "stat_mod": "stat_mod"}
AYA = {"card": "WC-001", "qty": 1}
JACK = {"card": "WC-010", "qty": 1, "options": {"cortex": "WC-K01", "weapons": ["WC-W01"]}}
SQUAD = {"card": "WC-004", "qty": 1}


def _board():
    """Aya (arc node, burning) with a damaged, burning warjack and a corroded squad; enemies 2–6″ away."""
    state = table([(AYA, [(15, 10)]), (JACK, [(17, 10)]), (SQUAD, [(13, 10), (12, 11.5)])],
                  [("WC-011", [(15, 16)]), ("WC-004", [(17, 16), (15, 12.5)])])
    combat.apply_effect(state, model_of(state, 0), "fire", 1, "test")
    jack = model_of(state, 0, 1)
    jack.health -= 2
    combat.apply_effect(state, jack, "fire", 1, "test")
    combat.apply_effect(state, model_of(state, 0, 2), "corrosion", 1, "test")
    return state


def test_the_bundled_package_has_28_cyphers():
    assert len(ALL_CYPHERS) == 28


@pytest.mark.parametrize("code", ALL_CYPHERS)
def test_every_bundled_cypher_can_be_played(code):
    state = _board()
    cypher, = compile_rack(Catalog(CARDS), [{"card": code, "qty": 1}], "rack")
    choices = cyphers.cypher_options(state, 0, cypher)
    assert choices, f"{code} has no legal target on a board with friends and enemies in range"
    since = len(state.events)
    cyphers.play_cypher(state, 0, cypher, choices[0])
    played, = events(state, "cypher", since)
    assert played.data["card"] == code
    for effect in cypher.effects:
        assert events(state, EVENT_OF[effect.kind], since), f"{code}: no {effect.kind} event"
    assert not invariant_problems(state)


def test_cyphers_need_an_arc_node_on_the_table():
    state = table([(JACK, [(17, 10)])], [("WC-011", [(15, 16)])])
    cypher, = compile_rack(Catalog(CARDS), [{"card": "WC-C19", "qty": 1}], "rack")
    assert cyphers.cypher_options(state, 0, cypher) == []


def test_attack_cypher_targets_enemies_in_range_of_the_node_and_uses_its_foc():
    state = _board()
    cypher, = compile_rack(Catalog(CARDS), [{"card": "WC-C06", "qty": 1}], "rack")  # rng 14 pow 7
    choices = cyphers.cypher_options(state, 0, cypher)
    assert sorted(state.models[c].unit for c in choices) == sorted(state.sides[1].units)  # one model per unit
    state.rng = Scripted([0, 0, 0])
    cyphers.play_cypher(state, 0, cypher, model_of(state, 1).uid)
    attack, = events(state, "attack")
    assert (attack.data["attacker"], attack.data["stat"], attack.data["origin"]) == (model_of(state, 0).uid, 4, "cypher")


def test_area_cypher_hits_every_enemy_around_the_node():
    """過熱波 Overheat Pulse: 2 damage to every enemy model within 3″ of the arc node, no friend."""
    state = table([(AYA, [(15, 10)]), (SQUAD, [(13, 10)])], [("WC-004", [(15, 12), (19, 10), (25, 25)])])
    cypher, = compile_rack(Catalog(CARDS), [{"card": "WC-C27", "qty": 1}], "rack")
    node = model_of(state, 0)
    assert cyphers.cypher_options(state, 0, cypher) == [node.uid]
    cyphers.play_cypher(state, 0, cypher, node.uid)
    hurt = {e.data["model"] for e in events(state, "damage")}
    assert hurt == {model_of(state, 1, 0, 0).uid, model_of(state, 1, 0, 1).uid}


def test_unit_target_effects_reach_every_model_of_the_unit():
    """重力井戸 Gravity Well: lockdown on an enemy unit (and units within 3″ of it)."""
    state = _board()
    cypher, = compile_rack(Catalog(CARDS), [{"card": "WC-C09", "qty": 1}], "rack")
    cyphers.play_cypher(state, 0, cypher, model_of(state, 1, 1).uid)
    assert unit_of(state, 1, 1).lockdown and unit_of(state, 1, 0).lockdown  # the warjack stands within 3″
    assert state.stat(model_of(state, 1, 1, 1), "spd") == 5 - 2


@pytest.mark.parametrize("mode, playable", [(2, False), (1, True)])
def test_w15_system_failure_on_ranged_blocks_ranged_cypher_attacks_through_that_node(mode, playable):
    """W15: system failure's "no ranged attacks" (1d6 4–6) covers attack cyphers played through the model as arc
    node; "no melee attacks" does not stop a ranged cypher attack. (Only warjacks take system failure; the bundled
    arc nodes are heroes, so the effect is set on the node directly.)"""
    state = _board()
    cypher, = compile_rack(Catalog(CARDS), [{"card": "WC-C06", "qty": 1}], "rack")  # a ranged attack cypher
    node = model_of(state, 0)
    node.effects["system_failure"] = mode
    assert bool(cyphers.cypher_options(state, 0, cypher)) == playable
