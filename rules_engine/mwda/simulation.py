"""MechWarrior: Dark Age simulations: play an army against a sample opponent many times.

Registered with rules_engine.simulation as the "mwda" simulator. Player 0 plays the list with the chosen
policy; an `army` opponent is played by the same policy, a `goldfish` never gets an order.
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
from rules_engine.mwda.game import MwdaGame, MwdaOptionError, MwdaState
from rules_engine.core.catalog import CardDataError
from rules_engine.simulation import BaseSimulator, list_codes, register_simulator
from rules_engine.mwda import search  # noqa: F401  (registers mwda-search)

MEANS = ("points_destroyed", "points_lost", "units_surviving", "heat_shutdowns", "orders_per_round")


class MwdaSimulator(BaseSimulator):
    system = "mwda"
    title = "MWDA"
    policy_aliases = {"greedy": "mwda-greedy", "search": "mwda-search", "defensive": "mwda-defensive"}
    default_policy = "mwda-greedy"
    input_errors = ((MwdaOptionError, "snapshot.options"), (CardDataError, "card data"))
    chunk_sizes = {"goldfish": 500, "army": 500}  # ~300 battles/s
    # Seats apply against an army; a goldfish never gets an order (its first player is the roll of the option).
    policy_opponents = frozenset({"army"})
    fixed_order = {"goldfish": "no_turns"}
    # The largest format (standard-500) fields at most 25 units at the cheapest bundled unit's 20 points: 4× that.
    max_list_size = 100
    list_size_noun = "units"
    max_steps = 20_000  # a safety net far above any real battle (max_rounds ends battles first)

    def new_game(self, document, cards, opponent, options) -> MwdaGame:
        return MwdaGame(document, cards, opponent, options)

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return entry_codes(opponent.get("units"))
        if kind == "army":
            return list_codes(opponent.get("list") or {})
        return set()

    def record(self, state: MwdaState) -> dict[str, Any]:
        return battle_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        add_outcome(summary, record)
        summary.mean("rounds").add(record["rounds"])
        summary.histogram("rounds_histogram").add(record["rounds"])
        for name in MEANS:
            summary.mean(name).add(record[name])
        add_counts(summary, "unit_damage", record["unit_damage"])
        add_card_games(summary, record, "unit_damage")

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        return {
            **outcome_fields(summary, games),
            "rounds": {"mean": mean_of(summary, "rounds"), "histogram": histogram_of(summary, "rounds_histogram")},
            **{name: {"mean": mean_of(summary, name)} for name in MEANS},
            "unit_damage": per_card(summary, "unit_damage", snapshot.get("cards") or {}, games, value="damage"),
            "card_impact": card_impact(summary, snapshot, games, ("army",)),
            "ended_by": ended_by(summary),
        }


def battle_record(state: MwdaState) -> dict[str, Any]:
    """What one finished battle says about the list (player 0)."""
    end = state.outcome() or outcome.Outcome(None, outcome.STEP_LIMIT)
    damage: dict[str, int] = {}
    for unit in state.units:
        if unit.side == PLAYER and state.damage_dealt[unit.uid]:
            damage[unit.spec.code] = damage.get(unit.spec.code, 0) + state.damage_dealt[unit.uid]
    own_turns = state.turns_taken[PLAYER]
    return {
        "outcome": outcome_of(end.winner),
        "ended_by": end.reason,
        "rounds": state.round,
        "points_destroyed": state.points_destroyed[PLAYER],
        "points_lost": state.points_destroyed[OPPONENT],
        "units_surviving": sum(1 for u in state.units if u.side == PLAYER and u.alive),
        "heat_shutdowns": state.shutdowns[PLAYER],
        "orders_per_round": state.orders_given[PLAYER] / own_turns if own_turns else 0.0,
        "unit_damage": damage,
    }


register_simulator(MwdaSimulator())
