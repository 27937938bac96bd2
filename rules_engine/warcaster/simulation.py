"""Warcaster simulations: play a force against a sample opponent many times and report how it did.

Registered with rules_engine.simulation as the "warcaster" simulator. Player 0 plays the list with the chosen
policy; a `force` opponent is played by the same policy; the `goldfish` never acts (the rules play it).
Result fields: wins/losses/draws, win_rate and its Wilson interval, victory points (mean for and against),
units destroyed and lost (means), rounds, cyphers played by the list (by code, with name), continuous effects
applied by the list's side (by kind), and how games ended.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.report import (
    add_card_games, card_impact,
    OPPONENT, PLAYER, add_counts, add_outcome, ended_by, entry_codes, histogram_of, mean_of, outcome_fields,
    outcome_of, per_card,
)
from rules_engine.core.stats import Summary
from rules_engine.simulation import BaseSimulator, SimulationInputError, list_codes, register_simulator
from rules_engine.warcaster import search  # noqa: F401  (registers warcaster-search)
from rules_engine.warcaster.game import WarcasterGame
from rules_engine.core.catalog import CardDataError
from rules_engine.warcaster.game import DEFAULT_OPTIONS


class WarcasterSimulator(BaseSimulator):
    system = "warcaster"
    title = "Warcaster"
    policy_aliases = {"greedy": "warcaster-greedy", "search": "warcaster-search"}
    default_policy = "warcaster-greedy"
    default_options = DEFAULT_OPTIONS
    input_errors = ((CardDataError, "card data"), (ValueError, ""))
    chunk_sizes = {"goldfish": 400, "force": 250}  # about a second a chunk in pure Python (compiled: ~400 greedy games/s)
    # Seats apply against a force; the goldfish never acts (its first player is the game's roll).
    policy_opponents = frozenset({"force"})
    fixed_order = {"goldfish": "no_turns"}
    # The largest format (full) holds at most 3 heroes (and their attachments), 15 units and a 15-cypher rack
    # (W1-W3): under 40 in all; about 4× that.
    max_list_size = 150
    list_size_noun = "units and cyphers"
    max_steps = 50_000  # a safety net: 3 pulse rounds end every game long before

    def new_game(self, document, cards, opponent, options) -> WarcasterGame:
        if not isinstance(opponent, Mapping):
            raise SimulationInputError("snapshot.opponent: expected an opponent object (kind goldfish or force)")
        return WarcasterGame(document, cards, opponent, options)

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return entry_codes(opponent.get("units"))
        if kind == "force":
            return list_codes(opponent.get("list") or {})
        return set()

    def record(self, state: Any) -> dict[str, Any]:
        return game_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        add_outcome(summary, record)
        for name in ("vp_for", "vp_against", "units_destroyed", "units_lost", "rounds"):
            summary.mean(name).add(record[name])
        summary.histogram("vp_margin").add(record["vp_for"] - record["vp_against"])
        add_counts(summary, "cyphers_played", record["cyphers_played"])
        add_card_games(summary, record, "cyphers_played")
        add_counts(summary, "effects_applied", record["effects_applied"])

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        effects = summary.tally("effects_applied").to_dict()["counts"]
        return {
            **outcome_fields(summary, games),
            "victory_points": {"mean": mean_of(summary, "vp_for"), "margin_histogram": histogram_of(summary, "vp_margin")},
            "victory_points_against": {"mean": mean_of(summary, "vp_against")},
            "units_destroyed": {"mean": mean_of(summary, "units_destroyed")},
            "units_lost": {"mean": mean_of(summary, "units_lost")},
            "rounds": {"mean": mean_of(summary, "rounds")},
            "cyphers_played": per_card(summary, "cyphers_played", snapshot.get("cards") or {}, games),
            "card_impact": card_impact(summary, snapshot, games, ("rack",)),
            "effects_applied": {kind: effects[kind] for kind in sorted(effects)},
            "ended_by": ended_by(summary),
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
    end = state.outcome() or outcome.Outcome(None, outcome.STEP_LIMIT)
    return {
        "outcome": outcome_of(end.winner),
        "ended_by": end.reason,
        "vp_for": state.sides[PLAYER].vp,
        "vp_against": state.sides[OPPONENT].vp,
        "units_destroyed": destroyed,
        "units_lost": lost,
        "rounds": state.round,
        "cyphers_played": played,
        "effects_applied": effects,
    }


register_simulator(WarcasterSimulator())
