"""Toy Duel's engine: two decks, three rounds. Each side shuffles its deck and draws a hand of three; on its turn a
player plays one card of its hand, scoring the card's power plus a six-sided die, then draws one. After `rounds`
rounds the side with more points wins (equal points: a draw). The state follows rules_engine/core/game.py."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from rules_engine.core import outcome
from rules_engine.core.catalog import CardDataError, entries_of
from rules_engine.core.events import EventLog
from rules_engine.core.game import TERMINAL, IllegalActionError

DEFAULT_OPTIONS: Mapping[str, Any] = {"rounds": 3, "hand_size": 3}
MAX_POWER = 9


class Play(NamedTuple):
    """Play the card `code` from the hand."""

    kind: str
    code: str


class Pass(NamedTuple):
    """No card in hand: the turn passes."""

    kind: str = "pass"


class ToyOptionError(ValueError):
    """An option Toy Duel does not know, or a value out of its range."""


def read_card(card: Mapping[str, Any]) -> int:
    """The card's power (0 to MAX_POWER): the engine's reader of a card (the registry's `check_card`)."""
    code = str(card.get("code", "?"))
    power = card.get("power")
    if isinstance(power, bool) or not isinstance(power, int) or not 0 <= power <= MAX_POWER:
        raise CardDataError(code, "power", f"expected an integer from 0 to {MAX_POWER}, got {power!r}")
    return power


def deck_of(document: Mapping[str, Any], cards: Mapping[str, Any], where: str) -> list[str]:
    deck = []
    sections = document.get("sections") if isinstance(document, Mapping) else None
    for at, code, qty, _entry in entries_of((sections or {}).get("deck", []), f"{where}.deck"):
        if code not in cards:
            raise CardDataError(str(code), at, "not a card of the snapshot")
        read_card(cards[code])
        deck.extend([code] * qty)
    return deck


class ToyDuelGame:
    name = "toyduel"
    num_players = 2

    def __init__(self, document: Mapping[str, Any], cards: Mapping[str, Any], opponent: Any,
                 options: Mapping[str, Any]) -> None:
        unknown = set(options or {}) - set(DEFAULT_OPTIONS)
        if unknown:
            raise ToyOptionError(f"unknown option(s) {', '.join(sorted(unknown))}")
        self.options = {**DEFAULT_OPTIONS, **(options or {})}
        if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10 for v in self.options.values()):
            raise ToyOptionError("rounds and hand_size are whole numbers from 1 to 10")
        self.cards = cards
        other = opponent.get("list") if isinstance(opponent, Mapping) else None
        self.decks = (deck_of(document, cards, "list"), deck_of(other or {}, cards, "opponent"))

    def new_initial_state(self, rng: random.Random, first_player: int | None = None,
                          setup_rngs: Any = None) -> ToyDuelState:
        return ToyDuelState(self, rng, 0 if first_player is None else first_player, setup_rngs or (rng, rng))


class ToyDuelState:
    def __init__(self, game: ToyDuelGame, rng: random.Random, first: int, setup_rngs: Any) -> None:
        self.game, self.rng, self.first = game, rng, first
        self.events = EventLog()
        self.turn, self.round, self.player = 1, 1, first
        self.points = [0, 0]
        self.played: list[dict[str, int]] = [{}, {}]
        self.decks = [list(deck) for deck in game.decks]
        for player in (0, 1):
            setup_rngs[player].shuffle(self.decks[player])
        size = game.options["hand_size"]
        self.hands = [self.decks[p][:size] for p in (0, 1)]
        self.decks = [self.decks[p][size:] for p in (0, 1)]
        self.end: outcome.Outcome | None = None
        self.events.record("setup", 0, None, {"first": first, "rounds": game.options["rounds"]})
        self._start_turn()

    def _start_turn(self) -> None:
        self.events.record("turn_start", self.turn, self.player, {"round": self.round})

    def current_player(self) -> int:
        return TERMINAL if self.end is not None else self.player

    def legal_actions(self) -> list[Any]:
        if self.end is not None:
            return []
        hand = self.hands[self.player]
        return [Play("play", code) for code in sorted(set(hand))] if hand else [Pass()]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal")
        player = self.player
        if action[0] == "play":
            code = action[1]
            self.hands[player].remove(code)
            roll = self.rng.randint(1, 6)
            scored = read_card(self.game.cards[code]) + roll
            self.points[player] += scored
            self.played[player][code] = self.played[player].get(code, 0) + 1
            self.events.record("play", self.turn, player, {"card": code, "roll": roll, "points": scored})
            if self.decks[player]:
                self.hands[player].append(self.decks[player].pop(0))
        self.player = 1 - player
        if self.player == self.first:
            self.round += 1
            if self.round > self.game.options["rounds"]:
                self._finish()  # said at the end of the last turn
                return
        self.turn += 1
        self._start_turn()

    def _finish(self) -> None:
        self.round = self.game.options["rounds"]
        mine, theirs = self.points
        self.end = outcome.Outcome(0 if mine > theirs else 1 if theirs > mine else None, outcome.ROUNDS)
        self.events.record("game_over", self.turn, None, {"winner": self.end.winner, "reason": self.end.reason})

    def is_terminal(self) -> bool:
        return self.end is not None

    def outcome(self) -> outcome.Outcome | None:
        return self.end

    def returns(self) -> tuple[float, ...]:
        if self.end is None or self.end.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.end.winner == 0 else (-1.0, 1.0)

    def clone(self) -> ToyDuelState:
        copy = object.__new__(ToyDuelState)
        copy.__dict__.update(self.__dict__)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy.events = EventLog(self.events)
        copy.points, copy.played = list(self.points), [dict(p) for p in self.played]
        copy.decks, copy.hands = [list(d) for d in self.decks], [list(h) for h in self.hands]
        return copy
