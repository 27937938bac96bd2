"""HAGMI!'s words for a position (docs/positions.md: the analysis page, `manage.py position`), in the reader's
language (rules_engine/core/words.py): the decision ("You to play: main phase: play cards, use skills, or go to
battle") and each legal action (its record in actions.py) in words: "Attack the opponent with 紅蓮丸". The registry
carries it as `Presentation.position_words` (POSITION_WORDS); builder/web/positionboard.py asks it."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import Decision, PositionWords
from rules_engine.core.naming import Namer
from rules_engine.core.words import _t, _tl

from .cardtext import effect_text

__all__ = ["PHASES", "ACTIONS", "decision", "action", "POSITION_WORDS"]

# The decisions (a position's "decision": {"kind", "player"}), in words.
PHASES = {
    "main": _tl("analysis phase", "main phase: play cards, use skills, or go to battle"),
    "battle": _tl("analysis phase", "battle phase: declare an attack or end the turn"),
    "defend": _tl("analysis phase", "an attack comes: counter, intercept or do not defend"),
    "emergency": _tl("analysis phase", "emergency window (緊急): use an emergency card or skill, or let the hits go on"),
}


def decision(position: Mapping[str, Any]) -> Decision:
    """The turn and who decides what: the attacked player defends, so the decision names its player."""
    turn, found = position.get("turn"), position.get("decision")
    player = next((position.get(key) for key in ("player", "active", "to_play") if position.get(key) is not None),
                  None)
    kind = None
    if isinstance(found, Mapping):
        player, kind = found.get("player", player), found.get("kind")
    words = PHASES.get(kind) if isinstance(kind, str) else None
    return Decision(turn if isinstance(turn, int) else None, None, player, str(words) if words else "")


def _targets(names: Namer, targets: Any) -> str:
    words = []
    for target in targets or []:
        if isinstance(target, list) and target[:1] == ["player"]:
            words.append(_side_object(names, target[1] if len(target) > 1 else 1))
        else:
            words.append(names.uid(target))
    return _t("analysis action", ", ").join(words) if words else _t("analysis action", "nobody")


def _side_object(names: Namer, player: Any) -> str:
    if player == 0:
        return _t("analysis action", "you")
    return _t("analysis action", "the beasts") if names.coop else _t("analysis action", "the opponent")


def _paid(n: Namer, payment: Any) -> str:
    names = [n.uid(uid) for uid in payment or []]
    return _t("analysis action", ", ").join(names) if names else _t("analysis action", "nothing")


def _h_play(n: Namer, card: int, payment: Any, target: Any) -> str:
    paid = _paid(n, payment)
    if isinstance(target, list) and len(target) == 2 and all(isinstance(t, int) for t in target):
        return _t("analysis action", "Refit %(source)s into %(card)s, paying %(paid)s", source=n.uid(target[0]),
                  card=n.uid(card), paid=paid)
    if isinstance(target, int):
        return _t("analysis action", "Play %(card)s on %(target)s, paying %(paid)s", card=n.uid(card),
                  target=n.uid(target), paid=paid)
    return _t("analysis action", "Play %(card)s, paying %(paid)s", card=n.uid(card), paid=paid)


def _skill_words(n: Namer, card: int, index: int) -> str:
    """A skill as its card text says it (cardtext.py), or its number when unknown."""
    code = n.codes.get(card) if isinstance(card, int) else None
    data = n.cards.get(code) if isinstance(code, str) else None
    skills = data.get("skills") if isinstance(data, Mapping) else None
    if isinstance(skills, list) and 0 <= index < len(skills) and isinstance(skills[index], Mapping):
        try:
            return str(effect_text(skills[index])).rstrip("。.")
        except (KeyError, TypeError, ValueError):
            pass
    return str(index + 1)


def _h_skill(n: Namer, card: int, index: int, target: Any) -> str:
    if isinstance(target, list) and len(target) == 2 and all(isinstance(t, int) for t in target):  # H22 refit
        return _t("analysis action", "Use the skill of %(card)s (%(skill)s): refit %(source)s into %(into)s",
                  skill=_skill_words(n, card, index), card=n.uid(card), source=n.uid(target[0]),
                  into=n.uid(target[1]))
    if target is None:
        return _t("analysis action", "Use the skill of %(card)s: %(skill)s", skill=_skill_words(n, card, index),
                  card=n.uid(card))
    return _t("analysis action", "Use the skill of %(card)s on %(target)s: %(skill)s",
              skill=_skill_words(n, card, index), card=n.uid(card), target=_targets(n, [target]))


ACTIONS: dict[str, Any] = {
    "play": _h_play,
    "skill": _h_skill,
    "hidden": lambda n, unit, target: _t("analysis action", "Use the hidden mechanism (秘匿機構) of %(unit)s",
                                         unit=n.uid(unit)),
    "design": lambda n, design, materials: _t("analysis action", "Produce %(card)s from %(n)s units",
                                              card=n.uid(design), n=len(materials or [])),
    "battle": lambda n: _t("analysis action", "Go to the battle phase"),
    "attack": lambda n, unit, targets: _t("analysis action", "Attack %(targets)s with %(unit)s",
                                          targets=_targets(n, targets), unit=n.uid(unit)),
    "end": lambda n: _t("analysis action", "End the battle phase and the turn"),
    "counter": lambda n: _t("analysis action", "Counter (反撃) with the attacked unit"),
    "intercept": lambda n, unit: _t("analysis action", "Intercept (守護) with %(unit)s", unit=n.uid(unit)),
    "no_defend": lambda n: _t("analysis action", "Do not defend"),
    "pass": lambda n: _t("analysis action", "Let the hits go on"),
}


def action(kind: str, fields: Sequence[Any], names: Namer, position: Mapping[str, Any],
           result: Mapping[str, Any]) -> str | None:
    write = ACTIONS.get(kind)
    return None if write is None else str(write(names, *fields))


POSITION_WORDS = PositionWords(decision=decision, action=action)
