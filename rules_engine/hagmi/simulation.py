"""HAGMI! simulations: play a list against a sample opponent many times and report how it did (issue 3).

Registered with rules_engine.simulation as the "hagmi" simulator. Player 0 plays the list with the chosen
policy; a `deck` opponent is played by the same policy, the 機獣 side (`coop`) and the `goldfish` by the rules.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.core.game import play_out
from rules_engine.core.policies import get_policy
from rules_engine.core.stats import Summary, wilson_interval
from rules_engine.hagmi.cards import CardDataError
from rules_engine.hagmi.game import DEFAULT_OPTIONS, HagmiGame
from rules_engine.simulation import SimulationInputError, list_codes, register_simulator

PLAYER, OPPONENT = 0, 1
MAX_STEPS = 200_000  # a safety net far above any real game (max_turns ends games first)
POLICY_ALIASES = {"greedy": "hagmi-greedy"}


def policy_name(name: Any) -> str:
    """`greedy` means this system's greedy player; other names are the core registry's."""
    if not isinstance(name, str) or not name:
        return "hagmi-greedy"
    return POLICY_ALIASES.get(name, name)


class Prepared:
    """A snapshot compiled once per process: the game (cards parsed) and the policy objects."""

    __slots__ = ("game", "policies")

    def __init__(self, game: HagmiGame, policies: list[Any]) -> None:
        self.game = game
        self.policies = policies


class HagmiSimulator:
    system = "hagmi"

    def prepare(self, snapshot: Mapping[str, Any]) -> Prepared:
        cards = snapshot.get("cards")
        if not isinstance(cards, Mapping):
            raise SimulationInputError("snapshot.cards: expected an object of card code → card")
        options = snapshot.get("options") or {}
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise SimulationInputError(f"snapshot.options: unknown HAGMI option(s) {', '.join(sorted(unknown))}")
        try:
            policy = get_policy(policy_name(snapshot.get("policy")))
        except ValueError as exc:
            raise SimulationInputError(f"policy: {exc}") from None
        try:
            game = HagmiGame(snapshot.get("list") or {}, cards, snapshot.get("opponent"), options)
        except CardDataError as exc:
            raise SimulationInputError(f"card data: {exc}") from None
        except ValueError as exc:
            raise SimulationInputError(str(exc)) from None
        return Prepared(game, [policy, policy])

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        codes: set[str] = set()
        kind = opponent.get("kind")
        if kind == "goldfish":
            codes.update(_entry_codes(opponent.get("damage_deck")))
        elif kind == "coop":
            if isinstance(opponent.get("mothership"), str):
                codes.add(opponent["mothership"])
            codes.update(_entry_codes(opponent.get("beast_deck")))
        elif kind == "deck":
            codes.update(list_codes(opponent.get("list") or {}))
        return codes

    def play_one(self, prepared: Prepared, game_index: int, rng: random.Random) -> dict[str, Any]:
        state = prepared.game.new_initial_state(rng)
        state = play_out(state, prepared.policies, rng, max_steps=MAX_STEPS)
        return game_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        summary.tally("outcome").add(record["outcome"])
        summary.tally("ended_by").add(record["ended_by"])
        summary.mean("turns").add(record["turns"])
        summary.histogram("turns_histogram").add(record["turns"])
        summary.mean("damage_per_turn").add(record["damage_per_turn"])
        if record["first_unit_turn"] is None:
            summary.tally("first_unit").add("never")
        else:
            summary.tally("first_unit").add("deployed")
            summary.mean("first_unit_turn").add(record["first_unit_turn"])
            summary.histogram("first_unit_turn_histogram").add(record["first_unit_turn"])
        played = summary.tally("cards_played")
        for code, count in record["cards_played"].items():
            played.add(code, count)

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        outcome = summary.tally("outcome")
        wins, losses, draws = outcome["win"], outcome["loss"], outcome["draw"]
        played = summary.tally("cards_played")
        cards = snapshot.get("cards") or {}
        low, high = wilson_interval(wins, games) if games else (0.0, 0.0)
        first_unit = summary.tally("first_unit")
        return {
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "win_rate": round(wins / games, 6) if games else 0.0,
            "win_rate_interval": [round(low, 6), round(high, 6)],
            "turns": {
                "mean": _mean(summary, "turns"),
                "histogram": _histogram(summary, "turns_histogram"),
            },
            "damage_per_turn": {"mean": _mean(summary, "damage_per_turn")},
            "first_unit_turn": {
                "mean": _mean(summary, "first_unit_turn"),
                "histogram": _histogram(summary, "first_unit_turn_histogram"),
                "games_without_unit": first_unit["never"],
            },
            "cards_played": [
                {
                    "card": code,
                    "name": (cards.get(code) or {}).get("name", code),
                    "count": count,
                    "per_game": round(count / games, 6) if games else 0.0,
                }
                for code, count in sorted(played.to_dict()["counts"].items(), key=lambda item: (-item[1], item[0]))
            ],
            "ended_by": dict(sorted(summary.tally("ended_by").to_dict()["counts"].items())),
        }


def game_record(state: Any) -> dict[str, Any]:
    """What one finished game says about the list (player 0), read from its event log."""
    own_turns = 0
    damage = 0
    first_unit_turn = None
    played: dict[str, int] = {}
    ended_by = "step limit"
    for event in state.events:
        kind = event.kind
        if kind == "turn_start":
            if event.player == PLAYER:
                own_turns += 1
        elif kind == "damage":
            if event.player == OPPONENT:
                damage += event.data.get("amount", 0) or 0
        elif kind == "damage_player":
            if event.player == OPPONENT:
                damage += 1
        elif kind == "play":
            if event.player == PLAYER:
                code = event.data.get("card")
                played[code] = played.get(code, 0) + 1
        elif kind == "enter":
            if event.player == PLAYER and first_unit_turn is None:
                first_unit_turn = max(own_turns, 1)
        elif kind == "game_over":
            ended_by = event.data.get("reason", "unknown")
    winner = state.winner if state.is_terminal() else None
    outcome = "win" if winner == PLAYER else "loss" if winner == OPPONENT else "draw"
    return {
        "outcome": outcome,
        "ended_by": ended_by,
        "turns": own_turns,
        "damage_per_turn": damage / own_turns if own_turns else 0.0,
        "first_unit_turn": first_unit_turn,
        "cards_played": played,
    }


def _entry_codes(entries: Any) -> set[str]:
    return {e["card"] for e in entries or () if isinstance(e, Mapping) and isinstance(e.get("card"), str)}


def _mean(summary: Summary, name: str) -> float | None:
    if name not in summary or summary.mean(name).count == 0:
        return None
    return round(summary.mean(name).mean, 6)


def _histogram(summary: Summary, name: str) -> dict[str, int]:
    if name not in summary:
        return {}
    return {str(key): value for key, value in sorted(summary.histogram(name).to_dict()["counts"].items(), key=lambda kv: int(kv[0]))}


register_simulator(HagmiSimulator())
