"""HAGMI! simulations: play a list against a sample opponent many times and report how it did.

Registered with rules_engine.simulation as the "hagmi" simulator. Player 0 plays the list with the chosen
policy; a `deck` opponent is played by the same policy, the 機獣 side (`coop`) and the `goldfish` by the rules.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.catalog import CardDataError
from rules_engine.core import outcome
from rules_engine.core.report import (
    add_card_games, card_impact,
    OPPONENT, PLAYER, add_counts, add_outcome, ended_by, entry_codes, histogram_of, mean_of, outcome_fields,
    outcome_of, per_card,
)
from rules_engine.core.stats import Summary
from rules_engine.hagmi.game import DEFAULT_OPTIONS, HagmiGame
from rules_engine.simulation import BaseSimulator, list_codes, register_simulator
from rules_engine.hagmi import search  # noqa: F401  (registers hagmi-search)


class HagmiSimulator(BaseSimulator):
    system = "hagmi"
    title = "HAGMI"
    policy_aliases = {"greedy": "hagmi-greedy", "search": "hagmi-search"}
    default_policy = "hagmi-greedy"
    default_options = DEFAULT_OPTIONS
    input_errors = ((CardDataError, "card data"), (ValueError, ""))
    chunk_sizes = {"goldfish": 4000, "deck": 2000, "coop": 500}  # ~2 800, ~1 500, ~350 games/s
    # Seats apply against a deck; 機獣討滅戦線 fixes the order (the players always go first) and a goldfish takes no
    # turns: there the option `first_player` decides, as before.
    policy_opponents = frozenset({"deck"})
    fixed_order = {"coop": "rules", "goldfish": "no_turns"}
    # The formats are built around a 40-card main deck (tactics-v4: 20 兵器 + 20 作戦; v3: 20 in all) plus a few
    # damage and 秘策 cards, and cap copies (H4), not size: 10× a 40-card deck is far beyond any real one.
    max_list_size = 400
    max_steps = 200_000  # a safety net far above any real game (max_turns ends games first)

    def new_game(self, document, cards, opponent, options) -> HagmiGame:
        return HagmiGame(document, cards, opponent, options)

    def first_player_of(self, state: Any) -> int:
        """The player of the game's first turn (its first `turn_start` event)."""
        return next((event.player for event in state.events if event.kind == "turn_start"), PLAYER)

    def referenced_cards(self, opponent: Mapping[str, Any]) -> set[str]:
        kind = opponent.get("kind")
        if kind == "goldfish":
            return entry_codes(opponent.get("damage_deck"))
        if kind == "coop":
            ship = opponent.get("mothership")
            return entry_codes(opponent.get("beast_deck")) | ({ship} if isinstance(ship, str) else set())
        if kind == "deck":
            return list_codes(opponent.get("list") or {})
        return set()

    def record(self, state: Any) -> dict[str, Any]:
        return game_record(state)

    def summarise(self, summary: Summary, record: Mapping[str, Any]) -> None:
        add_outcome(summary, record)
        summary.mean("turns").add(record["turns"])
        summary.histogram("turns_histogram").add(record["turns"])
        summary.mean("damage_per_turn").add(record["damage_per_turn"])
        for turn, damage in enumerate(record["damage_by_turn"], 1):  # only the games that reached that turn
            summary.mean(f"damage_on_turn_{turn}").add(damage)
        if record["first_unit_turn"] is None:
            summary.tally("first_unit").add("never")
        else:
            summary.tally("first_unit").add("deployed")
            summary.mean("first_unit_turn").add(record["first_unit_turn"])
            summary.histogram("first_unit_turn_histogram").add(record["first_unit_turn"])
        add_counts(summary, "cards_played", record["cards_played"])
        add_card_games(summary, record, "cards_played", seen="cards_drawn")

    def result(self, summary: Summary, snapshot: Mapping[str, Any], *, games: int, seed: int) -> dict[str, Any]:
        return {
            **outcome_fields(summary, games),
            "turns": {"mean": mean_of(summary, "turns"), "histogram": histogram_of(summary, "turns_histogram")},
            "damage_per_turn": {"mean": mean_of(summary, "damage_per_turn"), "by_turn": damage_by_turn(summary)},
            "first_unit_turn": {
                "mean": mean_of(summary, "first_unit_turn"),
                "histogram": histogram_of(summary, "first_unit_turn_histogram"),
                "games_without_unit": summary.tally("first_unit")["never"],
            },
            "cards_played": per_card(summary, "cards_played", snapshot.get("cards") or {}, games),
            "card_impact": card_impact(summary, snapshot, games, ("weapons", "tactics")),
            "ended_by": ended_by(summary),
        }


def damage_by_turn(summary: Summary) -> list[dict[str, Any]]:
    """The mean damage dealt to the opponent in each of your turns (turn 1, 2, ...: from the start of your turn to
    the start of your next, so counter damage in the opponent's turn counts too), over the games that reached it."""
    rows = []
    turn = 1
    while f"damage_on_turn_{turn}" in summary:
        stat = summary.mean(f"damage_on_turn_{turn}")
        rows.append({"turn": turn, "mean": round(stat.mean, 6), "games": stat.count})
        turn += 1
    return rows


def cards_drawn(state: Any) -> dict[str, int]:
    """The list's 兵器 and 作戦 cards drawn in the game (the opening hand included; a card searched out of its deck
    counts too): copies per code no longer in those decks at the end. The list is set up first, its 兵器 then its
    作戦 deck taking the first card ids (HagmiState._setup_side), so they are ids 0 .. n-1. Read from the final
    state: the draw events do not name the card."""
    sides = getattr(getattr(state, "game", None), "sides", None)
    if not sides or not state.players or state.players[PLAYER].kind != "deck":
        return {}
    side = sides[PLAYER]
    main = len(side.get("weapons") or []) + len(side.get("tactics") or [])
    player = state.players[PLAYER]
    left = set(player.weapons) | set(player.tactics)
    drawn: dict[str, int] = {}
    for uid in range(min(main, len(state.cards))):
        if uid not in left:
            code = state.cards[uid].code
            drawn[code] = drawn.get(code, 0) + 1
    return drawn


def game_record(state: Any) -> dict[str, Any]:
    """What one finished game says about the list (player 0), read from its event log."""
    own_turns = 0
    damage = 0
    by_turn: list[int] = []  # damage dealt to the opponent during each of your turns and the opponent's after it
    first_unit_turn = None
    played: dict[str, int] = {}
    for event in state.events:
        kind = event.kind
        if kind == "turn_start":
            if event.player == PLAYER:
                own_turns += 1
                by_turn.append(0)
        elif kind == "damage":
            if event.player == OPPONENT:
                amount = event.data.get("amount", 0) or 0
                damage += amount
                if by_turn:
                    by_turn[-1] += amount
        elif kind == "mothership_damage":  # H34: cores destroyed by attacking the mothership
            if event.player == OPPONENT:
                amount = event.data.get("amount", 0) or 0
                damage += amount
                if by_turn:
                    by_turn[-1] += amount
        elif kind == "damage_player":
            if event.player == OPPONENT and not event.data.get("lost"):  # H9: damage past the last card is lost
                damage += 1
                if by_turn:
                    by_turn[-1] += 1
        elif kind == "play":
            if event.player == PLAYER:
                code = event.data.get("card")
                played[code] = played.get(code, 0) + 1
        elif kind == "enter":
            if event.player == PLAYER and first_unit_turn is None:
                first_unit_turn = max(own_turns, 1)
    end = state.outcome() or outcome.Outcome(None, outcome.STEP_LIMIT)
    return {
        "outcome": outcome_of(end.winner),
        "ended_by": end.reason,
        "cards_drawn": cards_drawn(state),
        "turns": own_turns,
        "damage_per_turn": damage / own_turns if own_turns else 0.0,
        "damage_by_turn": by_turn,
        "first_unit_turn": first_unit_turn,
        "cards_played": played,
    }


register_simulator(HagmiSimulator())
