"""The HAGMI! board at the end of each turn, for the replay page (rules_engine.replay).

A card game has no table to draw from the event log alone (an armament's unit, a refuel's source, a refit's new
uid are not in it), so the replay plays the game again and looks at the state between decisions (rules_engine.replay):
`Boards` takes a snapshot (`board_of`) after every decision and keeps one per turn. It only reads the state (no rng,
no change), so the game and its events are exactly those of the run.

A snapshot is plain JSON: per side its counts (hand, 秘策, decks, damage deck, discard, removed), its battlefield
(units with fuel, armor left, firepower, down, equipped armaments with their durability left; facilities;
unequipped armaments) or, for the 機獣 side of a co-op game, the mothership's cores and the 機獣 with theirs.
"""
from __future__ import annotations

from typing import Any

__all__ = ["Boards", "board_of", "codes_of"]


def _unit(state: Any, unit: Any) -> dict[str, Any]:
    durability = state.players[unit.owner].durability if state.is_player_side(unit.owner) else {}
    return {
        "uid": unit.uid, "code": state.cards[unit.uid].code, "fuel": len(unit.fuel),
        "armor": state.armor_left(unit), "armor_max": state.armor(unit), "firepower": state.firepower(unit),
        "down": bool(unit.down), "cores": unit.cores, "stored": len(unit.stored),
        "armaments": [{"code": state.cards[uid].code, "durability": durability.get(uid)} for uid in unit.armaments],
    }


def board_of(state: Any) -> dict[str, Any]:
    """Both sides as they stand now (read only)."""
    sides: list[dict[str, Any]] = []
    for index, player in enumerate(state.players):
        beasts = state.beasts
        if beasts is not None and index == beasts.index:
            sides.append({"kind": "coop", "mothership": beasts.mothership.code, "cores": beasts.cores,
                          "deck": len(beasts.deck), "chargers": len(beasts.chargers), "discard": len(beasts.discard),
                          "removed": len(beasts.removed),
                          "units": [_unit(state, unit) for unit in beasts.beasts]})
            continue
        sides.append({
            "kind": player.kind, "hand": len(player.hand), "secret": len(player.secret),
            "weapons": len(player.weapons), "tactics": len(player.tactics), "damage_deck": len(player.damage_deck),
            "discard": len(player.discard), "removed": len(player.removed),
            "units": [_unit(state, unit) for unit in player.units],
            "facilities": [state.cards[uid].code for uid in player.facilities],
            "loose": [state.cards[uid].code for uid in player.loose_armaments],
        })
    return {"turn": state.turn, "sides": sides}


def codes_of(state: Any) -> dict[int, str]:
    """Every physical card's uid -> its code (the log names units by uid in damage, refuel and down events)."""
    return {uid: card.code for uid, card in enumerate(state.cards)}


def _before_draws(board: dict[str, Any], events: Any, after_turn: int) -> dict[str, Any]:
    """`board` with the draws of the turns after `after_turn` taken back (a new turn's 兵站 draws come before its
    first decision, so the state at that decision is the board of the turn before plus those draws)."""
    for kind, turn, player, data in events:
        if kind == "draw" and turn > after_turn and player is not None and board["sides"][player]["kind"] != "coop":
            side = board["sides"][player]
            side["hand"] -= 1
            side[data.get("deck", "weapons")] += 1
    board["turn"] = after_turn
    return board


class Boards:
    """The board at the end of every turn, from the state between decisions (the engine is compiled: nothing can
    be hooked inside an action). rules_engine.replay calls `before(state, action)` before each action and
    `seen(state)` once set up and after each action, then `finish(state)`.

    A turn its player ends (the battle phase's "end") has the board just before that action: everything of the
    turn but its end-of-turn skills, with the damage still marked on the units (it clears as the turn ends). Any
    other turn (a 機獣 or goldfish turn, one ended by a flare) has the state at the first decision of a later turn,
    less that turn's draws. The last turn's board is the final state.
    """

    def __init__(self) -> None:
        self.boards: list[dict[str, Any]] = []
        self._ending: dict[str, Any] | None = None  # the board before an "end" action

    def before(self, state: Any, action: Any) -> None:
        self._ending = board_of(state) if isinstance(action, tuple) and action[:1] == ("end",) else None

    def seen(self, state: Any) -> None:
        while len(self.boards) < state.turn:  # turns that ended before this decision
            turn = len(self.boards)
            ending, self._ending = self._ending, None
            if ending is not None and ending["turn"] == turn:
                self.boards.append(ending)
            else:
                self.boards.append(_before_draws(board_of(state), state.events, turn))
        self._ending = None

    def finish(self, state: Any) -> list[dict[str, Any]]:
        self.seen(state)
        final = board_of(state)
        while len(self.boards) < final["turn"]:
            self.boards.append({**final, "turn": len(self.boards)})
        self.boards.append(final)
        return self.boards
