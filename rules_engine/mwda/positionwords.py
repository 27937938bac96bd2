"""MechWarrior: Dark Age's words for a position (docs/positions.md: the analysis page, `manage.py position`), in the
reader's language (rules_engine/core/words.py): the decision ("You to play: give an order (2 orders left this
turn)"), each legal action (its record in actions.py) in words ("Hound 1 shoots Tartan") and the points each side
has destroyed. The registry carries it as `Presentation.position_words` (POSITION_WORDS);
builder/web/positionboard.py asks it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import Decision, PositionWords, SideNote
from rules_engine.core.naming import Namer
from rules_engine.core.words import _t, _tl

__all__ = ["PHASES", "ACTIONS", "decision", "action", "side_notes", "POSITION_WORDS"]

# A position's "phase", in words.
PHASES = {
    "orders": _tl("analysis phase", "give an order"),
    "over": _tl("analysis phase", "the game is over"),
}


def decision(position: Mapping[str, Any]) -> Decision:
    """The round, the side to give an order, and how many orders it has left this turn (M2)."""
    turn, round_ = position.get("turn"), position.get("round")
    phase = position.get("phase") or position.get("decision")
    player = next((position.get(key) for key in ("player", "active", "to_play") if position.get(key) is not None),
                  None)
    words = PHASES.get(phase) if isinstance(phase, str) else None
    left = position.get("orders_left")
    note = _t("analysis", "(%(n)s orders left this turn)", n=left) \
        if phase == "orders" and isinstance(left, int) else ""
    return Decision(turn if isinstance(turn, int) else None, round_ if isinstance(round_, int) else None, player,
                    str(words) if words else "", over=phase == "over", note=note)


def _m_move(n: Namer, uid: int, toward: int, run: bool) -> str:
    if toward < 0:
        text = (_t("analysis action", "Run %(unit)s away from the nearest enemy", unit=n.piece(uid)) if run else
                _t("analysis action", "Move %(unit)s away from the nearest enemy", unit=n.piece(uid)))
    elif run:
        text = _t("analysis action", "Run %(unit)s toward %(target)s", unit=n.piece(uid), target=n.piece(toward))
    else:
        text = _t("analysis action", "Move %(unit)s toward %(target)s", unit=n.piece(uid), target=n.piece(toward))
    return text


def _m_advance(n: Namer, uid: int, toward: int, run: bool) -> str:
    if run:
        return _t("analysis action", "Run %(unit)s to just outside the reach of %(target)s", unit=n.piece(uid),
                  target=n.piece(toward))
    return _t("analysis action", "Move %(unit)s to just outside the reach of %(target)s", unit=n.piece(uid),
              target=n.piece(toward))


ACTIONS: dict[str, Any] = {
    "pass": lambda n: _t("analysis action", "Pass (give no more orders this turn)"),
    "vent": lambda n, uid: _t("analysis action", "Vent %(unit)s's heat", unit=n.piece(uid)),
    "move": _m_move,
    "advance": _m_advance,
    "shoot": lambda n, uid, target, weapon: (
        _t("analysis action", "%(unit)s shoots %(target)s", unit=n.piece(uid), target=n.piece(target)) if not weapon
        else _t("analysis action", "%(unit)s shoots %(target)s with its secondary weapon", unit=n.piece(uid),
                target=n.piece(target))),
    "close": lambda n, uid, target: _t("analysis action", "%(unit)s attacks %(target)s in close combat",
                                       unit=n.piece(uid), target=n.piece(target)),
    "charge": lambda n, uid, target: _t("analysis action", "%(unit)s charges %(target)s", unit=n.piece(uid),
                                        target=n.piece(target)),
    "dfa": lambda n, uid, target: _t("analysis action", "%(unit)s jumps on %(target)s (death from above)",
                                     unit=n.piece(uid), target=n.piece(target)),
}



def action(kind: str, fields: Sequence[Any], names: Namer, position: Mapping[str, Any],
           result: Mapping[str, Any]) -> str | None:
    write = ACTIONS.get(kind)
    return None if write is None else str(write(names, *fields))


def side_notes(position: Mapping[str, Any], names: Namer) -> list[SideNote]:
    """The points each side has destroyed."""
    notes = []
    for index, side in enumerate(position.get("sides") or []):
        if isinstance(side, Mapping) and side.get("points_destroyed") is not None:
            notes.append(SideNote(index, [_t("analysis", "%(n)s points destroyed", n=side["points_destroyed"])]))
    return notes


POSITION_WORDS = PositionWords(decision=decision, action=action, side_notes=side_notes)
