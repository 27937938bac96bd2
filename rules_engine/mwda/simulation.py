"""MechWarrior: Dark Age simulations: play an army against a sample opponent many times (issue 6).

Registered with rules_engine.simulation as the "mwda" simulator. Player 0 plays the list with the chosen
policy; an `army` opponent is played by the same policy, a `goldfish` never gets an order.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.stats import Summary, wilson_interval
from rules_engine.mwda.game import MwdaGame, MwdaOptionError
from rules_engine.mwda.state import MwdaState
from rules_engine.mwda.units import UnitDataError
from rules_engine.simulation import SimulationInputError, list_codes, register_simulator

PLAYER, OPPONENT = 0, 1
MAX_STEPS = 20_000  # a safety net far above any real battle (max_rounds ends battles first)
POLICY_ALIASES = {"greedy": "mwda-greedy", "defensive": "mwda-defensive"}


def policy_name(name: Any) -> str:
    """`greedy` / `defensive` mean this system's players; other names are the core registry's."""
    if not isinstance(name, str) or not name:
        return "mwda-greedy"
    return POLICY_ALIASES.get(name, name)


class Prepared:
    """A snapshot compiled once per process: the game (units parsed) and the policy objects."""

    __slots__ = ("game", "policies")

    def __init__(self, game: MwdaGame, policies: list[Any]) -> None:
        self.game = game
        self.policies = policies


class MwdaSimulator:
    system = "mwda"

    def prepare(self, snapshot: Mapping[str, Any]) -> Prepared:
        cards = snapshot.get("cards")
        if not isinstance(cards, Mapping):
            raise SimulationInputError("snapshot.cards: expected an object of card code → card")
        try:
            policy = get_policy(policy_name(snapshot.get("policy")))
        except ValueError as exc:
            raise SimulationInputError(f"policy: {exc}") from None
        try:
            game = MwdaGame(snapshot.get("list") or {}, cards, snapshot.get("opponent"), snapshot.get("options"))
        except MwdaOptionError as exc:
            raise SimulationInputError(f"snapshot.options: {exc}") from None
        except UnitDataError as exc:
            raise SimulationInputError(f"card data: {exc}") from None
        return Prepared(game, [policy, policy])

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return {e["card"] for e in opponent.get("units") or () if isinstance(e, Mapping)
                    and isinstance(e.get("card"), str)}
        if kind == "army":
            return list_codes(opponent.get("list") or {})
        return set()

    def play_one(self, prepared: Prepared, game_index: int, rng: random.Random) -> dict[str, Any]:
        state = prepared.game.new_initial_state(rng)
        state = play_out(state, prepared.policies, rng, max_steps=MAX_STEPS)
        return battle_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        summary.tally("outcome").add(record["outcome"])
        summary.tally("ended_by").add(record["ended_by"])
        summary.mean("rounds").add(record["rounds"])
        summary.histogram("rounds_histogram").add(record["rounds"])
        summary.mean("points_destroyed").add(record["points_destroyed"])
        summary.mean("points_lost").add(record["points_lost"])
        summary.mean("units_surviving").add(record["units_surviving"])
        summary.mean("heat_shutdowns").add(record["heat_shutdowns"])
        summary.mean("orders_per_round").add(record["orders_per_round"])
        damage = summary.tally("unit_damage")
        for code, amount in record["unit_damage"].items():
            damage.add(code, amount)

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        outcome = summary.tally("outcome")
        wins, losses, draws = outcome["win"], outcome["loss"], outcome["draw"]
        low, high = wilson_interval(wins, games) if games else (0.0, 0.0)
        cards = snapshot.get("cards") or {}
        damage = summary.tally("unit_damage").to_dict()["counts"]
        return {
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "win_rate": round(wins / games, 6) if games else 0.0,
            "win_rate_interval": [round(low, 6), round(high, 6)],
            "rounds": {"mean": _mean(summary, "rounds"), "histogram": _histogram(summary, "rounds_histogram")},
            "points_destroyed": {"mean": _mean(summary, "points_destroyed")},
            "points_lost": {"mean": _mean(summary, "points_lost")},
            "units_surviving": {"mean": _mean(summary, "units_surviving")},
            "heat_shutdowns": {"mean": _mean(summary, "heat_shutdowns")},
            "orders_per_round": {"mean": _mean(summary, "orders_per_round")},
            "unit_damage": [
                {
                    "card": code,
                    "name": (cards.get(code) or {}).get("name", code),
                    "damage": amount,
                    "per_game": round(amount / games, 6) if games else 0.0,
                }
                for code, amount in sorted(damage.items(), key=lambda item: (-item[1], item[0]))
            ],
            "ended_by": dict(sorted(summary.tally("ended_by").to_dict()["counts"].items())),
        }


def battle_record(state: MwdaState) -> dict[str, Any]:
    """What one finished battle says about the list (player 0)."""
    winner = state.winner if state.is_terminal() else None
    damage: dict[str, int] = {}
    for unit in state.units:
        if unit.side == PLAYER and state.damage_dealt[unit.uid]:
            damage[unit.spec.code] = damage.get(unit.spec.code, 0) + state.damage_dealt[unit.uid]
    own_turns = state.turns_taken[PLAYER]
    return {
        "outcome": "win" if winner == PLAYER else "loss" if winner == OPPONENT else "draw",
        "ended_by": state.end_reason or "step limit",
        "rounds": state.round,
        "points_destroyed": state.points_destroyed[PLAYER],
        "points_lost": state.points_destroyed[OPPONENT],
        "units_surviving": sum(1 for u in state.units if u.side == PLAYER and u.alive),
        "heat_shutdowns": state.shutdowns[PLAYER],
        "orders_per_round": state.orders_given[PLAYER] / own_turns if own_turns else 0.0,
        "unit_damage": damage,
    }


def _mean(summary: Summary, name: str) -> float | None:
    if name not in summary or summary.mean(name).count == 0:
        return None
    return round(summary.mean(name).mean, 6)


def _histogram(summary: Summary, name: str) -> dict[str, int]:
    if name not in summary:
        return {}
    counts = summary.histogram(name).to_dict()["counts"]
    return {str(key): value for key, value in sorted(counts.items(), key=lambda kv: int(kv[0]))}


register_simulator(MwdaSimulator())
