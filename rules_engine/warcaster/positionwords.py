"""Warcaster: Neo-Mechanika's words for a position (docs/positions.md: the analysis page, `manage.py position`), in
the reader's language (rules_engine/core/words.py): the decision ("You to play: activation phase: activate a unit or
pass"), each legal action (its record in actions.py) in words ("Charge 1 arc onto Raider"; an ability by its name in
the result, END by what it closes), and what each side holds off the table (victory points, arc pool, cyphers, rack
and discard, units in reserve or destroyed). The registry carries it as `Presentation.position_words`
(POSITION_WORDS); builder/web/positionboard.py asks it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import Decision, PositionWords, SideNote
from rules_engine.core.naming import Namer
from rules_engine.core.naming import capfirst
from rules_engine.core.words import _t, _tl, language

__all__ = ["PHASES", "ACTIONS", "decision", "action", "side_notes", "POSITION_WORDS"]

# The phases of a turn (W10), in words.
PHASES = {
    "charge": _tl("analysis phase", "charging phase: charge 1 arc or recall arc"),
    "recall": _tl("analysis phase", "charging phase: recall more arc or end the phase"),
    "cypher1": _tl("analysis phase", "cypher phase: play a cypher or pass"),
    "activate": _tl("analysis phase", "activation phase: activate a unit or pass"),
    "move": _tl("analysis phase", "the unit's activation: choose how it moves"),
    "act": _tl("analysis phase", "the unit's activation: attack, use an ability or wait"),
    "solo": _tl("analysis phase", "solo phase: activate a solo or pass"),
    "cypher2": _tl("analysis phase", "second cypher phase: play a cypher or pass"),
    "deploy": _tl("analysis phase", "deployment phase: deploy a unit through a void gate or end"),
    "gate": _tl("analysis phase", "place a void gate or pass"),
    "discard": _tl("analysis phase", "discard phase: discard one cypher if you like"),
    "over": _tl("analysis phase", "the game is over"),
}


def decision(position: Mapping[str, Any]) -> Decision:
    """The round, the turn and the phase: a position's "turn" is {"number", "round", "player", "phase", ...}."""
    turn, round_ = position.get("turn"), position.get("round")
    if isinstance(turn, Mapping):
        position = {**position, **{key: turn.get(key) for key in ("round", "player", "phase")}}
        round_ = turn.get("round")
        turn = turn.get("number")
    phase = position.get("phase") or position.get("decision")
    player = next((position.get(key) for key in ("player", "active", "to_play") if position.get(key) is not None),
                  None)
    words = PHASES.get(phase) if isinstance(phase, str) else None
    return Decision(turn if isinstance(turn, int) else None, round_ if isinstance(round_, int) else None, player,
                    str(words) if words else "", over=phase == "over")


_MOVE_MODES = {
    "advance": lambda: _t("analysis action", "advance toward the nearest enemy"),
    "objective": lambda: _t("analysis action", "head for the centre objective"),
    "hold": lambda: _t("analysis action", "hold its ground"),
}


def _holder(n: Namer, holder: str, uid: int) -> str:
    if holder == "gate":
        return _t("analysis action", "void gate %(n)s", n=uid)
    return n.unit(uid)


def _w_recall(n: Namer, holder: str, uid: int, amount: Any = None) -> str:
    if isinstance(amount, int):
        return _t("analysis action", "Recall %(n)s arc from %(holder)s", n=amount, holder=_holder(n, holder, uid))
    return _t("analysis action", "Recall the arc of %(holder)s", holder=_holder(n, holder, uid))


def _ability_name(names: Namer, name: str) -> str:
    """An ability's name in the page's language, from the card data (the engine keeps one name of the two)."""
    key = "name" if language() == "ja" else "name_en"
    for card in names.cards.values():
        for ability in (card.get("abilities") or []) if isinstance(card, Mapping) else []:
            if isinstance(ability, Mapping) and name in (ability.get("name"), ability.get("name_en")):
                return str(ability.get(key) or ability.get("name") or name)
    return name


def _w_ability(names: Namer, abilities: Mapping[Any, list[str]], model: int, index: int,
               choice: Any) -> str:
    found = abilities.get(model) or abilities.get(str(model)) or []
    ability = _ability_name(names, found[index]) if 0 <= index < len(found) else str(index + 1)
    if choice is None:
        return _t("analysis action", "%(model)s uses %(ability)s", model=names.piece(model), ability=ability)
    return _t("analysis action", "%(model)s uses %(ability)s on %(target)s", model=names.piece(model),
              ability=ability, target=names.piece(choice))


ACTIONS: dict[str, Any] = {
    "pass": lambda n, *rest: _t("analysis action", "Pass"),
    "charge": lambda n, holder, uid, *rest: _t("analysis action", "Charge 1 arc onto %(holder)s",
                                               holder=_holder(n, holder, uid)),
    "recall": _w_recall,
    "cypher": lambda n, code, choice=None: _t("analysis action", "Play the cypher %(card)s", card=n.card(code)),
    "activate": lambda n, unit: _t("analysis action", "Activate %(unit)s", unit=n.unit(unit)),
    "move": lambda n, mode: _t("analysis action", "Move: %(mode)s",
                               mode=_MOVE_MODES[mode]() if mode in _MOVE_MODES else mode),
    "attack": lambda n, target, arc: (
        _t("analysis action", "Attack %(unit)s", unit=n.unit(target)) if not arc else
        _t("analysis action", "Attack %(unit)s, boosted with %(n)s arc", unit=n.unit(target), n=arc)),
    "wait": lambda n: _t("analysis action", "Wait (end this activation)"),
    "deploy": lambda n, unit, gate: _t("analysis action", "Deploy %(unit)s through void gate %(gate)s",
                                       unit=n.unit(unit), gate=gate),
    "gate": lambda n, spot: _t("analysis action", "Place a void gate on spot %(n)s", n=spot + 1),
    "discard": lambda n, code: _t("analysis action", "Discard the cypher %(card)s", card=n.card(code)),
}


def action(kind: str, fields: Sequence[Any], names: Namer, position: Mapping[str, Any],
           result: Mapping[str, Any]) -> str | None:
    """An action in words; an ability by its name in the result (`abilities`: a model's abilities in order), END by
    what it closes (the charging phase or the deployment), by the position's phase."""
    if kind == "ability" and len(fields) == 3:
        return capfirst(_w_ability(names, result.get("abilities") or {}, *fields))
    if kind == "end":
        phase = position.get("phase")
        return str(_t("analysis action", "End the charging phase (recall no more arc)") if phase == "recall"
                   else _t("analysis action", "Deploy no more units"))
    write = ACTIONS.get(kind)
    return None if write is None else str(write(names, *fields))


def side_notes(position: Mapping[str, Any], names: Namer) -> list[SideNote]:
    """Beside the table, what each side holds off it: victory points and arc pool, cyphers in hand (yours by name),
    rack and discard, and its units in reserve or destroyed."""
    notes = []
    for index, side in enumerate(position.get("sides") or []):
        if not isinstance(side, Mapping):
            continue
        lines = [_t("analysis", "%(vp)s victory points · arc pool %(pool)s", vp=side.get("vp", 0),
                    pool=side.get("pool", "–"))]
        hand = side.get("hand") or []
        if index == 0 and hand:
            lines.append(_t("analysis", "Cyphers in hand: %(cards)s",
                            cards=_t("analysis action", ", ").join(names.card(code) for code in hand)))
        else:
            lines.append(_t("analysis", "%(n)s cyphers in hand", n=len(hand)))
        lines.append(_t("analysis", "Rack %(deck)s · discard %(discard)s", deck=len(side.get("deck") or []),
                        discard=len(side.get("discard") or [])))
        units = side.get("units") or []
        for status, words in (("reserve", _tl("analysis", "In reserve: %(names)s")),
                              ("destroyed", _tl("analysis", "Destroyed: %(names)s"))):
            found = [names.units[unit["uid"]][1] for unit in units if isinstance(unit, Mapping)
                     and unit.get("status") == status and unit.get("uid") in names.units]
            if found:
                lines.append(str(words) % {"names": _t("analysis action", ", ").join(found)})
        notes.append(SideNote(index, lines))
    return notes


POSITION_WORDS = PositionWords(decision=decision, action=action, side_notes=side_notes)
