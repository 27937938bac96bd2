"""A position as the analysis page shows it (builder/web/analysis.py): its board, the decision in words, each legal
action in words and the events played from it, in the page's language.

The board is the replay's: the HAGMI board (rules_engine/hagmi/board.py, templates/replays/_board.html) or the
MWDA / Warcaster table drawn from `board_events` (rules_engine/replay.py: the table as it stands, written as the
events a replay draws from), so pieces are named and drawn exactly as on a replay.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import pgettext

from . import gamereport, presenters, results
from .presenters import ui_lang
from .replays import final_pieces, hagmi_boards, legend, replay_drawing

_t = gamereport._t  # noqa: SLF001  (the report's own formatter: pgettext with named parameters)


def is_coop(system: str, position: Mapping[str, Any]) -> bool:
    opponent = position.get("opponent") or {}
    return isinstance(opponent, Mapping) and opponent.get("kind") in presenters.presentation(system).coop_opponent_kinds


def namer(system: str, position: Mapping[str, Any], result: Mapping[str, Any], cards: Mapping[str, Any]
          ) -> gamereport.Namer:
    """Names of the cards, units and models of the position, as the replay names them."""
    game = {"events": result.get("table_events") or [], "codes": result.get("codes") or {}}
    return gamereport.namer_for(system, game, cards, coop=is_coop(system, position))


def board(system: str, position: Mapping[str, Any], result: Mapping[str, Any], cards: Mapping[str, Any],
          names: gamereport.Namer) -> dict[str, Any]:
    """{"kind": "cards", "frames"} for HAGMI, {"kind": "table", "drawing", "final", "gates", "legend"} else."""
    if presenters.presentation(system).board == "cards":
        state_board = result.get("board")
        if not state_board:
            return {"kind": None}
        turn = {"turn": state_board["turn"], "heading": decision_words(system, position)["heading"]}
        frames = hagmi_boards({"boards": [state_board]}, names, [turn])
        sides = position.get("sides") or []
        for frame in frames:  # your hand and 秘策 by name: what you may play from here
            for side in frame["sides"]:
                if side["side"] == 0 and sides and isinstance(sides[0], Mapping):
                    side["hand_cards"] = [names.card(_code(entry)) for entry in sides[0].get("hand") or []]
                    side["secret_cards"] = [names.card(_code(entry)) for entry in sides[0].get("secret") or []]
        return {"kind": "cards", "frames": frames,
                "caption": pgettext("analysis", "The board of this position")}
    from rules_engine.replay import table_of

    events = result.get("table_events") or []
    game = {"system": system, "table": table_of(system, events), "events": events}
    drawing = replay_drawing(game, cards, names)
    if drawing["table"].get("name"):
        drawing["table"]["name"] = gamereport.table_name(drawing["table"]["name"])
    frames = drawing["frames"]
    final = final_pieces(drawing)
    drawn = {piece["id"] for piece in final}
    shown = {**drawing, "pieces": [piece for piece in drawing["pieces"] if piece["id"] in drawn]}
    notes = _side_notes(system, position, names)
    for note in notes:  # Warcaster units off the table: in reserve, or destroyed
        units = (position.get("sides") or [])[note["side"]].get("units") or []
        for status, words in (("reserve", lambda: pgettext("analysis", "In reserve: %(names)s")),
                              ("destroyed", lambda: pgettext("analysis", "Destroyed: %(names)s"))):
            found = [names.units[unit["uid"]][1] for unit in units if isinstance(unit, Mapping)
                     and unit.get("status") == status and unit.get("uid") in names.units]
            if found:
                note["lines"].append(words() % {"names": pgettext("analysis action", ", ").join(found)})
    return {"kind": "table", "drawing": drawing, "final": final,
            "gates": frames[-1]["gates"] if frames else [], "attacks": [], "legend": legend(shown),
            "caption": pgettext("analysis", "The table of this position"), "sides": notes}


def _side_notes(system: str, position: Mapping[str, Any], names: gamereport.Namer) -> list[dict[str, Any]]:
    """Beside the table, what each side holds off it: Warcaster victory points, arc pool, cyphers in hand (yours by
    name), rack and discard; MWDA the points destroyed."""
    notes = []
    shown = presenters.presentation(system).side_notes
    for index, side in enumerate(position.get("sides") or []):
        if not isinstance(side, Mapping):
            continue
        lines: list[str] = []
        if "victory_points" in shown:
            lines.append(pgettext("analysis", "%(vp)s victory points · arc pool %(pool)s")
                         % {"vp": side.get("vp", 0), "pool": side.get("pool", "–")})
        if "cyphers_in_hand" in shown:
            hand = side.get("hand") or []
            if index == 0 and hand:
                lines.append(pgettext("analysis", "Cyphers in hand: %(cards)s")
                             % {"cards": pgettext("analysis action", ", ").join(names.card(code) for code in hand)})
            else:
                lines.append(pgettext("analysis", "%(n)s cyphers in hand") % {"n": len(hand)})
        if "rack_and_discard" in shown:
            lines.append(pgettext("analysis", "Rack %(deck)s · discard %(discard)s")
                         % {"deck": len(side.get("deck") or []), "discard": len(side.get("discard") or [])})
        if "points_destroyed" in shown and side.get("points_destroyed") is not None:
            lines.append(pgettext("analysis", "%(n)s points destroyed") % {"n": side["points_destroyed"]})
        if lines:
            notes.append({"side": index, "title": _side(names, index), "lines": lines})
    return notes


def _code(entry: Any) -> Any:
    """A HAGMI position's card: "CODE#UID" or "CODE"."""
    return entry.split("#", 1)[0] if isinstance(entry, str) else None


def event_lines(system: str, result: Mapping[str, Any], cards: Mapping[str, Any], names: gamereport.Namer
                ) -> list[str]:
    """The events the played actions logged, as the replay's sentences."""
    game = {"events": result.get("events") or [], "codes": result.get("codes") or {}}
    lines: list[str] = []
    for turn in gamereport.report(system, game, cards, coop=names.coop, namer=names):
        lines.extend(str(line) for line in turn["lines"])
    return lines


def summary_words(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The headline figures of a simulated result (win rate, interval, length...), as a run's page shows them."""
    return results.result_view(str(summary.get("system")), summary, None, prefix="position")["stats"]


# ---- the decision ---------------------------------------------------------------------------------------------


def _side(names: gamereport.Namer | None, player: Any) -> str:
    if player == 0:
        return pgettext("analysis", "You")
    if player == 1 and names is not None and names.coop:
        return pgettext("analysis", "The beasts")
    return pgettext("analysis", "The opponent")


PHASES = {
    # HAGMI! decisions
    "main": lambda: pgettext("analysis phase", "main phase: play cards, use skills, or go to battle"),
    "battle": lambda: pgettext("analysis phase", "battle phase: declare an attack or end the turn"),
    "defend": lambda: pgettext("analysis phase", "an attack comes: counter, intercept or do not defend"),
    "emergency": lambda: pgettext("analysis phase", "emergency window (緊急): use an emergency card or skill, or let the hits go on"),
    # MechWarrior: Dark Age
    "orders": lambda: pgettext("analysis phase", "give an order"),
    # Warcaster: Neo-Mechanika (W10)
    "charge": lambda: pgettext("analysis phase", "charging phase: charge 1 arc or recall arc"),
    "recall": lambda: pgettext("analysis phase", "charging phase: recall more arc or end the phase"),
    "cypher1": lambda: pgettext("analysis phase", "cypher phase: play a cypher or pass"),
    "activate": lambda: pgettext("analysis phase", "activation phase: activate a unit or pass"),
    "move": lambda: pgettext("analysis phase", "the unit's activation: choose how it moves"),
    "act": lambda: pgettext("analysis phase", "the unit's activation: attack, use an ability or wait"),
    "solo": lambda: pgettext("analysis phase", "solo phase: activate a solo or pass"),
    "cypher2": lambda: pgettext("analysis phase", "second cypher phase: play a cypher or pass"),
    "deploy": lambda: pgettext("analysis phase", "deployment phase: deploy a unit through a void gate or end"),
    "gate": lambda: pgettext("analysis phase", "place a void gate or pass"),
    "discard": lambda: pgettext("analysis phase", "discard phase: discard one cypher if you like"),
    "over": lambda: pgettext("analysis phase", "the game is over"),
}


def decision_words(system: str, position: Mapping[str, Any], names: gamereport.Namer | None = None
                   ) -> dict[str, str]:
    """{"heading": "Round 3 · Turn 5", "words": "You to play: give an order (2 orders left)"}."""
    turn, round_ = position.get("turn"), position.get("round")
    if isinstance(turn, Mapping):  # Warcaster: {"number", "round", "player", "phase", ...}
        position = {**position, **{key: turn.get(key) for key in ("round", "player", "phase")}}
        turn, round_ = turn.get("number"), turn.get("round")
    if isinstance(round_, int) and isinstance(turn, int):
        heading = pgettext("analysis", "Round %(round)s · Turn %(turn)s") % {"round": round_, "turn": turn}
    elif isinstance(round_, int):
        heading = pgettext("analysis", "Round %(round)s") % {"round": round_}
    elif isinstance(turn, int):
        heading = pgettext("analysis", "Turn %(turn)s") % {"turn": turn}
    else:
        heading = ""
    phase = position.get("phase") or position.get("decision")
    player = next((position.get(key) for key in ("player", "active", "to_play") if position.get(key) is not None),
                  None)
    if isinstance(phase, Mapping):  # HAGMI: {"kind", "player"}: who decides (the attacked player defends)
        player = phase.get("player", player)
        phase = phase.get("kind")
    words = PHASES.get(phase)
    if phase == "over" or words is None:
        text = str(words()) if words else ""
    else:
        text = pgettext("analysis", "%(who)s to play: %(what)s") % {"who": _side(names, player), "what": words()}
    left = position.get("orders_left")
    if presenters.presentation(system).orders_per_turn and phase == "orders" and isinstance(left, int):
        text += " " + pgettext("analysis", "(%(n)s orders left this turn)") % {"n": left}
    return {"heading": heading, "words": text}


# ---- actions in words -------------------------------------------------------------------------------------------


def action_words(system: str, action: Any, names: gamereport.Namer, position: Mapping[str, Any],
                 result: Mapping[str, Any] | None = None) -> str:
    """A legal action (its record as a list: kind first) in words: "Attack the opponent with Hound 2"."""
    if not isinstance(action, list) or not action or not isinstance(action[0], str):
        return pgettext("analysis action", "an action")
    kind, fields = action[0], action[1:]
    positional = presenters.presentation(system).positional_actions
    if "ability" in positional and kind == "ability" and len(fields) == 3:
        return capfirst(_w_ability(names, (result or {}).get("abilities") or {}, *fields))
    if "end" in positional and kind == "end":  # END closes the deployment or the charging phase
        phase = position.get("phase")
        return str(pgettext("analysis action", "End the charging phase (recall no more arc)") if phase == "recall"
                   else pgettext("analysis action", "Deploy no more units"))
    write = _WRITERS.get(system, {}).get(kind)
    if write is not None:
        try:
            return capfirst(str(write(names, *fields)))
        except (TypeError, ValueError, IndexError, KeyError):
            pass
    return pgettext("analysis action", "Action %(kind)s") % {"kind": kind}


def _targets(names: gamereport.Namer, targets: Any) -> str:
    words = []
    for target in targets or []:
        if isinstance(target, list) and target[:1] == ["player"]:
            words.append(_side_object(names, target[1] if len(target) > 1 else 1))
        else:
            words.append(names.uid(target))
    return pgettext("analysis action", ", ").join(words) if words else pgettext("analysis action", "nobody")


def _side_object(names: gamereport.Namer, player: Any) -> str:
    if player == 0:
        return pgettext("analysis action", "you")
    return pgettext("analysis action", "the beasts") if names.coop else pgettext("analysis action", "the opponent")


def _paid(n: gamereport.Namer, payment: Any) -> str:
    names = [n.uid(uid) for uid in payment or []]
    return pgettext("analysis action", ", ").join(names) if names else pgettext("analysis action", "nothing")


def _h_play(n: gamereport.Namer, card: int, payment: Any, target: Any) -> str:
    paid = _paid(n, payment)
    if isinstance(target, list) and len(target) == 2 and all(isinstance(t, int) for t in target):
        return _t("analysis action", "Refit %(source)s into %(card)s, paying %(paid)s", source=n.uid(target[0]),
                  card=n.uid(card), paid=paid)
    if isinstance(target, int):
        return _t("analysis action", "Play %(card)s on %(target)s, paying %(paid)s", card=n.uid(card),
                  target=n.uid(target), paid=paid)
    return _t("analysis action", "Play %(card)s, paying %(paid)s", card=n.uid(card), paid=paid)


def _skill_words(n: gamereport.Namer, card: int, index: int) -> str:
    """A HAGMI skill as its card text says it (builder/web/cardtext.py), or its number when unknown."""
    from .cardtext import hagmi_effect

    data = n.cards.get(n.codes.get(card)) if isinstance(card, int) else None
    skills = data.get("skills") if isinstance(data, Mapping) else None
    if isinstance(skills, list) and 0 <= index < len(skills) and isinstance(skills[index], Mapping):
        try:
            return str(hagmi_effect(skills[index])).rstrip("。.")
        except (KeyError, TypeError, ValueError):
            pass
    return str(index + 1)


def _h_skill(n: gamereport.Namer, card: int, index: int, target: Any) -> str:
    if isinstance(target, list) and len(target) == 2 and all(isinstance(t, int) for t in target):  # H22 refit
        return _t("analysis action", "Use the skill of %(card)s (%(skill)s): refit %(source)s into %(into)s",
                  skill=_skill_words(n, card, index), card=n.uid(card), source=n.uid(target[0]),
                  into=n.uid(target[1]))
    if target is None:
        return _t("analysis action", "Use the skill of %(card)s: %(skill)s", skill=_skill_words(n, card, index),
                  card=n.uid(card))
    return _t("analysis action", "Use the skill of %(card)s on %(target)s: %(skill)s",
              skill=_skill_words(n, card, index), card=n.uid(card), target=_targets(n, [target]))


_HAGMI = {
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


def _m_move(n: gamereport.Namer, uid: int, toward: int, run: bool) -> str:
    if toward < 0:
        text = (_t("analysis action", "Run %(unit)s away from the nearest enemy", unit=n.piece(uid)) if run else
                _t("analysis action", "Move %(unit)s away from the nearest enemy", unit=n.piece(uid)))
    elif run:
        text = _t("analysis action", "Run %(unit)s toward %(target)s", unit=n.piece(uid), target=n.piece(toward))
    else:
        text = _t("analysis action", "Move %(unit)s toward %(target)s", unit=n.piece(uid), target=n.piece(toward))
    return text


def _m_advance(n: gamereport.Namer, uid: int, toward: int, run: bool) -> str:
    if run:
        return _t("analysis action", "Run %(unit)s to just outside the reach of %(target)s", unit=n.piece(uid),
                  target=n.piece(toward))
    return _t("analysis action", "Move %(unit)s to just outside the reach of %(target)s", unit=n.piece(uid),
              target=n.piece(toward))


_MWDA = {
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

_MOVE_MODES = {
    "advance": lambda: pgettext("analysis action", "advance toward the nearest enemy"),
    "objective": lambda: pgettext("analysis action", "head for the centre objective"),
    "hold": lambda: pgettext("analysis action", "hold its ground"),
}


def _holder(n: gamereport.Namer, holder: str, uid: int) -> str:
    if holder == "gate":
        return _t("analysis action", "void gate %(n)s", n=uid)
    return n.unit(uid)


def _w_recall(n: gamereport.Namer, holder: str, uid: int, amount: Any = None) -> str:
    if isinstance(amount, int):
        return _t("analysis action", "Recall %(n)s arc from %(holder)s", n=amount, holder=_holder(n, holder, uid))
    return _t("analysis action", "Recall the arc of %(holder)s", holder=_holder(n, holder, uid))


def _ability_name(names: gamereport.Namer, name: str) -> str:
    """An ability's name in the page's language, from the card data (the engine keeps one name of the two)."""
    key = "name" if ui_lang() == "ja" else "name_en"
    for card in names.cards.values():
        for ability in (card.get("abilities") or []) if isinstance(card, Mapping) else []:
            if isinstance(ability, Mapping) and name in (ability.get("name"), ability.get("name_en")):
                return str(ability.get(key) or ability.get("name") or name)
    return name


def _w_ability(names: gamereport.Namer, abilities: Mapping[Any, list[str]], model: int, index: int,
               choice: Any) -> str:
    found = abilities.get(model) or abilities.get(str(model)) or []
    ability = _ability_name(names, found[index]) if 0 <= index < len(found) else str(index + 1)
    if choice is None:
        return _t("analysis action", "%(model)s uses %(ability)s", model=names.piece(model), ability=ability)
    return _t("analysis action", "%(model)s uses %(ability)s on %(target)s", model=names.piece(model),
              ability=ability, target=names.piece(choice))


_WARCASTER = {
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

_WRITERS: dict[str, dict[str, Any]] = {"hagmi": _HAGMI, "mwda": _MWDA, "warcaster": _WARCASTER}
