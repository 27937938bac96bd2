"""The greedy policy's moves and move cyphers, on small constructed tables: it weighs each move where it leaves the
unit (the attack it can make from there and the W16 centre objective), and values a cypher that moves a friendly
unit, or gives it SPD, by the attack the extra inches bring into reach this turn."""
from __future__ import annotations

import random

from rules_engine.core.policies import get_policy
from rules_engine.warcaster.actions import PASS
from tests.rules_engine.warcaster import model_of, table, unit_of

ED_KAI = {"card": "WC-013", "qty": 1}  # hero, SPD 7, Chain Sickle melee RNG 2
BREAKERS = {"card": "WC-005", "qty": 1}  # squad of 3, SPD 5, Resonance Hammer melee RNG 1
JIN = {"card": "WC-002", "qty": 1}  # hero (arc node)


def _in_phase(state, unit, phase):
    """Player 0's `unit` activated and at its `phase` ("move" or "act") of its activation."""
    state.player, state.phase, state.acting = 0, phase, unit.uid
    unit.activated = True
    state._legal = None
    return state


def _moving(state, unit):
    return _in_phase(state, unit, "move")


def test_w16_greedy_steps_onto_the_centre_it_can_fight_from_instead_of_holding_outside_it():
    """An enemy stands on the centre (W16: it would score the pulse round); Ed Kai is in reach of it 1.8″ away but
    outside the objective's 3″. Early in the round the old greedy held (a target in reach) and fought from outside,
    so the enemy scored unopposed; now the move towards the centre keeps the attack and contests the objective."""
    state = table([(ED_KAI, [(15, 11.0)])], [("WC-015", [(15, 14.0)])])
    hero = unit_of(state, 0)
    for model in hero.models[1:]:
        model.alive, model.health = False, 0
    state.invalidate()
    _moving(state, hero)
    assert state.turns_taken[0] == 0  # the first turn of the round: not the late-round rule
    assert state.attack_targets(hero)  # the enemy is in reach from where it stands
    choice = get_policy("warcaster-greedy").choose(state, random.Random(0))
    assert choice == ("move", "objective")
    state.apply(choice)
    lead = model_of(state, 0)
    assert ((lead.x - 15) ** 2 + (lead.y - 15) ** 2) ** 0.5 - lead.spec.radius <= 3  # within the objective
    assert state.attack_targets(hero)  # and still in reach of the enemy


def test_greedy_holds_when_in_reach_and_the_centre_is_not_at_stake():
    """The same reach far from the centre: nothing to gain by moving, so it holds and attacks from there."""
    state = table([(ED_KAI, [(4, 4.0)])], [("WC-015", [(4, 7.0)])])
    hero = unit_of(state, 0)
    for model in hero.models[1:]:
        model.alive, model.health = False, 0
    state.invalidate()
    _moving(state, hero)
    assert get_policy("warcaster-greedy").choose(state, random.Random(0)) == ("move", "hold")


def test_greedy_plays_a_move_cypher_that_brings_a_melee_unit_into_reach():
    """Surge Forward (突進: a friendly unit moves 4″) on the Breakers, 8.5″ from an enemy: SPD 5 and the hammer's
    1″ do not reach it, SPD 5 + 4 do. The old greedy valued every move cypher at 1, below the threshold to play a
    card, and kept it; now it is worth the attack it brings into reach this turn."""
    state = table([(JIN, [(8, 1.0)]), (BREAKERS, [(15, 5.0), (14, 4.0), (16, 4.0)])], [("WC-015", [(15, 14.7)])],
                  rack=["WC-C26"])
    state.player, state.phase = 0, "cypher1"
    state._legal = None
    breakers = unit_of(state, 0, 1)
    assert [c.code for c in state.sides[0].hand] == ["WC-C26"]
    choice = get_policy("warcaster-greedy").choose(state, random.Random(0))
    assert choice != PASS and choice.code == "WC-C26" and state.models[choice.choice].unit == breakers.uid


def test_greedy_keeps_the_move_cypher_when_the_unit_reaches_without_it():
    """The Breakers already reach the enemy with their own move: the cypher adds no attack, so the card is kept."""
    state = table([(JIN, [(8, 1.0)]), (BREAKERS, [(15, 5.0), (14, 4.0), (16, 4.0)])], [("WC-015", [(20, 10.0)])],
                  rack=["WC-C26"])
    state.player, state.phase = 0, "cypher1"
    state._legal = None
    assert get_policy("warcaster-greedy").choose(state, random.Random(0)) == PASS


NOGITSUNE_SPRAYER = {"card": "WC-020", "qty": 1, "options": {"cortex": "WC-K03", "weapons": ["WC-W06"]}}  # spray, fire
ENGINEER = {"card": "WC-007", "qty": 1}


def _acting(state, unit):
    return _in_phase(state, unit, "act")


def test_w14_greedy_does_not_spray_through_its_own_model():
    """W14: a spray hits every model on the line, friend or foe. The only enemy in reach stands behind a friendly
    Field Engineer: the spray would do it about as much harm as the enemy, and set it on fire. The old greedy
    counted only the damage to the target and fired; now it waits."""
    state = table([(NOGITSUNE_SPRAYER, [(15, 5.0)]), (ENGINEER, [(15, 7.6)])], [("WC-015", [(15, 10.0)])])
    unit = unit_of(state, 0)
    _acting(state, unit)
    attack = next(a for a in state.legal_actions() if a.kind == "attack" and a.arc == 0)
    spray_line = [m.uid for m in state.on_board() if m.player == 0 and m.unit != unit.uid]
    assert spray_line  # the engineer, on the line
    assert get_policy("warcaster-greedy").choose(state, random.Random(0)) == ("wait",)
    assert attack in state.legal_actions()


def test_greedy_sprays_when_no_friend_is_on_the_line():
    state = table([(NOGITSUNE_SPRAYER, [(15, 5.0)]), (ENGINEER, [(10, 4.0)])], [("WC-015", [(15, 10.0)])])
    _acting(state, unit_of(state, 0))
    assert get_policy("warcaster-greedy").choose(state, random.Random(0)).kind == "attack"


def test_greedy_does_not_walk_into_reach_of_a_rifle_it_cannot_answer():
    """Homestead Militia (RNG 10, SPD 5) 24.8″ from a Ridge Sharpshooter (RNG 14, SPD 6): out of each other's reach
    where they stand. Advancing 5″ gives the Militia no shot (19.8″ > 10″) but puts them within the Sharpshooter's
    move and range (6 + 14 = 20″), so it would shoot first. The old greedy advanced whenever it had no target; now
    it holds."""
    militia = {"card": "WC-015", "qty": 1}
    state = table([(militia, [(13, 2.0), (14.3, 2.0), (15.6, 2.0), (16.9, 2.0), (18.2, 2.0)])],
                  [("WC-017", [(15.6, 28.0)])])
    unit = unit_of(state, 0)
    _moving(state, unit)
    assert not state.attack_targets(unit)
    assert get_policy("warcaster-greedy").choose(state, random.Random(0)) == ("move", "hold")
