"""Warcaster simulations: play a force against a sample opponent many times and report how it did (issue 7).

Registered with rules_engine.simulation as the "warcaster" simulator. Player 0 plays the list with the chosen
policy; a `force` opponent is played by the same policy; the `goldfish` never acts (the rules play it).
Result fields: wins/losses/draws, win_rate and its Wilson interval, victory points (mean for and against),
units destroyed and lost (means), rounds, cyphers played by the list (by code, with name), continuous effects
applied by the list's side (by kind), and how games ended.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.stats import Summary, wilson_interval
from rules_engine.simulation import SimulationInputError, list_codes, register_simulator
from rules_engine.warcaster.game import WarcasterGame
from rules_engine.warcaster.models import CardDataError
from rules_engine.warcaster.state import DEFAULT_OPTIONS

PLAYER, OPPONENT = 0, 1
MAX_STEPS = 50_000  # a safety net: 3 pulse rounds end every game long before
POLICY_ALIASES = {"greedy": "warcaster-greedy"}


def policy_name(name: Any) -> str:
    """`greedy` means this system's greedy player; other names are the core registry's."""
    if not isinstance(name, str) or not name:
        return "warcaster-greedy"
    return POLICY_ALIASES.get(name, name)


class Prepared:
    """A snapshot compiled once per process: the game (cards parsed) and the policy objects."""

    __slots__ = ("game", "policies")

    def __init__(self, game: WarcasterGame, policies: list[Any]) -> None:
        self.game = game
        self.policies = policies


class WarcasterSimulator:
    system = "warcaster"

    def prepare(self, snapshot: Mapping[str, Any]) -> Prepared:
        cards = snapshot.get("cards")
        if not isinstance(cards, Mapping):
            raise SimulationInputError("snapshot.cards: expected an object of card code → card")
        options = snapshot.get("options") or {}
        if not isinstance(options, Mapping):
            raise SimulationInputError("snapshot.options: expected an object")
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise SimulationInputError(f"snapshot.options: unknown Warcaster option(s) {', '.join(sorted(unknown))}")
        opponent = snapshot.get("opponent")
        if not isinstance(opponent, Mapping):
            raise SimulationInputError("snapshot.opponent: expected an opponent object (kind goldfish or force)")
        try:
            policy = get_policy(policy_name(snapshot.get("policy")))
        except ValueError as exc:
            raise SimulationInputError(f"policy: {exc}") from None
        try:
            game = WarcasterGame(snapshot.get("list") or {}, cards, opponent, options)
        except CardDataError as exc:
            raise SimulationInputError(f"card data: {exc}") from None
        except ValueError as exc:
            raise SimulationInputError(str(exc)) from None
        return Prepared(game, [policy, policy])

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return {e["card"] for e in opponent.get("units") or ()
                    if isinstance(e, Mapping) and isinstance(e.get("card"), str)}
        if kind == "force":
            return list_codes(opponent.get("list") or {})
        return set()

    def play_one(self, prepared: Prepared, game_index: int, rng: random.Random) -> dict[str, Any]:
        state = prepared.game.new_initial_state(rng)
        play_out(state, prepared.policies, rng, max_steps=MAX_STEPS)
        return game_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        summary.tally("outcome").add(record["outcome"])
        summary.tally("ended_by").add(record["ended_by"])
        for name in ("vp_for", "vp_against", "units_destroyed", "units_lost", "rounds"):
            summary.mean(name).add(record[name])
        summary.histogram("vp_margin").add(record["vp_for"] - record["vp_against"])
        played = summary.tally("cyphers_played")
        for code, count in record["cyphers_played"].items():
            played.add(code, count)
        effects = summary.tally("effects_applied")
        for kind, count in record["effects_applied"].items():
            effects.add(kind, count)

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        outcome = summary.tally("outcome")
        wins, losses, draws = outcome["win"], outcome["loss"], outcome["draw"]
        low, high = wilson_interval(wins, games) if games else (0.0, 0.0)
        cards = snapshot.get("cards") or {}
        played = summary.tally("cyphers_played").to_dict()["counts"]
        effects = summary.tally("effects_applied").to_dict()["counts"]
        return {
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "win_rate": round(wins / games, 6) if games else 0.0,
            "win_rate_interval": [round(low, 6), round(high, 6)],
            "victory_points": {"mean": _mean(summary, "vp_for"), "margin_histogram": _histogram(summary, "vp_margin")},
            "victory_points_against": {"mean": _mean(summary, "vp_against")},
            "units_destroyed": {"mean": _mean(summary, "units_destroyed")},
            "units_lost": {"mean": _mean(summary, "units_lost")},
            "rounds": {"mean": _mean(summary, "rounds")},
            "cyphers_played": [
                {"card": code, "name": (cards.get(code) or {}).get("name", code), "count": count,
                 "per_game": round(count / games, 6) if games else 0.0}
                for code, count in sorted(played.items(), key=lambda item: (-item[1], item[0]))
            ],
            "effects_applied": {kind: effects[kind] for kind in sorted(effects)},
            "ended_by": dict(sorted(summary.tally("ended_by").to_dict()["counts"].items())),
        }


def game_record(state: Any) -> dict[str, Any]:
    """What one finished game says about the list (player 0), read from its event log."""
    destroyed = lost = 0
    played: dict[str, int] = {}
    effects: dict[str, int] = {}
    for event in state.events:
        kind = event.kind
        if kind == "unit_destroyed":
            if event.player == OPPONENT:
                destroyed += 1
            else:
                lost += 1
        elif kind == "cypher" and event.player == PLAYER:
            code = event.data["card"]
            played[code] = played.get(code, 0) + 1
        elif kind == "effect" and event.data.get("change") == "applied" and event.data.get("by") == PLAYER:
            name = event.data["effect"]
            effects[name] = effects.get(name, 0) + 1
    winner = state.winner if state.is_terminal() else None
    return {
        "outcome": "win" if winner == PLAYER else "loss" if winner == OPPONENT else "draw",
        "ended_by": state.ended_by or "step limit",
        "vp_for": state.sides[PLAYER].vp,
        "vp_against": state.sides[OPPONENT].vp,
        "units_destroyed": destroyed,
        "units_lost": lost,
        "rounds": state.round,
        "cyphers_played": played,
        "effects_applied": effects,
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


register_simulator(WarcasterSimulator())
