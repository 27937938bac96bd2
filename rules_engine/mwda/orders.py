"""Orders and action tokens (RULES.md M10–M12): giving an order, the token it costs, pushing, and the end-of-turn
clean-up.

Plain functions of the running state (`MwdaState`, game.py): M10 one order per unit per turn, counted against
the player's orders, and an action token for every order but vent; M11 pushing, an order to a unit that still
carries a token from an earlier turn (a mech takes a heat click, a vehicle or infantry its second token and a
click of damage); M12 the units that got no order lose their tokens, and mechs vent 1 heat. `turn_orders`: a
turn's order count (M2, option `mobile_hq_bonus`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.mwda import combat

if TYPE_CHECKING:
    from rules_engine.mwda.game import MwdaState
    from rules_engine.mwda.state import Unit


def turn_orders(state: MwdaState, side: int) -> int:
    """M2: the orders `side` may give this turn: its order count, fixed for the game — a 移動司令部's bonus included
    after it is eliminated (option mobile_hq_bonus = "kept" [interpretation]); with "lost", less the order bonus of
    the side's units eliminated before this turn began (never below 1 order while the count is at least 1)."""
    count = state.orders[side]
    if state.options["mobile_hq_bonus"] != "lost":
        return count
    lost = sum(unit.spec.order_bonus for unit in state.units if unit.side == side and not unit.alive)
    return max(min(count, 1), count - lost)


def give_order(state: MwdaState, unit: Unit, kind: str) -> None:
    """M10: one order per unit per turn; counts against the player's orders."""
    state.ordered.add(unit.uid)
    state.orders_left -= 1
    state.orders_given[unit.side] += 1
    state.log("order", unit.side, {"unit": unit.uid, "order": kind, "tokens": unit.tokens,
                                   "orders_left": state.orders_left})


def take_token(state: MwdaState, unit: Unit) -> None:
    """M10/M11: an ordered unit takes an action token; pushing (a token from an earlier turn) costs a mech
    1 heat click instead, a vehicle or infantry the second token and 1 damage."""
    if not unit.alive or unit.tokens >= 2:
        return
    if unit.tokens == 0:
        unit.tokens = 1
        state.log("token", unit.side, {"unit": unit.uid, "tokens": 1})
    elif unit.spec.is_mech:
        state.log("push", unit.side, {"unit": unit.uid, "penalty": "heat"})
        combat.add_heat(state, unit, 1, reason="push")
    else:
        unit.tokens = 2
        state.log("push", unit.side, {"unit": unit.uid, "penalty": "damage", "tokens": 2})
        combat.apply_damage(state, unit, 1, source=None, reason="push")


def clean_up(state: MwdaState) -> None:
    """M12: the active player's units that got no order lose their tokens; mechs also vent 1 heat."""
    for unit in state.units:
        if unit.alive and unit.side == state.active and unit.uid not in state.ordered:
            if unit.tokens:
                unit.tokens = 0
                state.log("tokens_removed", unit.side, {"unit": unit.uid})
            if unit.spec.is_mech and unit.heat > 0:
                combat.vent(state, unit, 1, reason="automatic")
