"""Toy Duel's simulations: the list (player 0) against a sample deck, registered with rules_engine.simulation as the
"toyduel" simulator (imported on first use through its registry entry's `simulator_module`)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core import outcome
from rules_engine.core.catalog import CardDataError
from rules_engine.core.report import PLAYER, add_counts, add_outcome, ended_by, outcome_fields, outcome_of, per_card
from rules_engine.core.stats import Summary
from rules_engine.simulation import BaseSimulator, list_codes, register_simulator
from tests.toygame.game import ToyDuelGame, ToyDuelState, ToyOptionError


class ToyDuelSimulator(BaseSimulator):
    system = "toyduel"
    title = "Toy Duel"
    default_policy = "random"
    policy_aliases = {"greedy": "first"}  # the toy has no player of its own: the first legal card
    input_errors = ((ToyOptionError, "snapshot.options"), (CardDataError, "card data"))
    chunk_sizes = {"deck": 200}
    policy_opponents = frozenset({"deck"})
    max_list_size = 60
    max_steps = 200

    def new_game(self, document, cards, opponent, options) -> ToyDuelGame:
        return ToyDuelGame(document, cards, opponent, options)

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        return list_codes(opponent.get("list") or {}) if opponent.get("kind") == "deck" else set()

    def record(self, state: ToyDuelState) -> dict[str, Any]:
        end = state.outcome() or outcome.Outcome(None, outcome.STEP_LIMIT)
        return {"outcome": outcome_of(end.winner), "ended_by": end.reason, "cards_played": dict(state.played[PLAYER])}

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        add_outcome(summary, record)
        add_counts(summary, "cards_played", record["cards_played"])

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        return {
            **outcome_fields(summary, games),
            "cards_played": per_card(summary, "cards_played", snapshot.get("cards") or {}, games),
            "ended_by": ended_by(summary),
        }


register_simulator(ToyDuelSimulator())
