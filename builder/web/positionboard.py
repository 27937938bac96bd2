"""A position as the analysis page shows it (builder/web/analysis.py): its board, the decision in words, each legal
action in words and the events played from it, in the page's language.

The board is the replay's: the HAGMI board (rules_engine/hagmi/board.py, templates/replays/_board.html) or the
MWDA / Warcaster table drawn from `board_events` (rules_engine/replay.py: the table as it stands, written as the
events a replay draws from), so pieces are named and drawn exactly as on a replay.

The words are the game's (its rules_engine/<game>/positionwords.py, the registry's `Presentation.position_words`):
the decision, each action, what each side holds off the table. This module puts them on the page: the heading, "You
to play: …", the sides' names; a game with no words of its own still shows its actions, by their kinds in words.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine.core.gamewords import PositionWords
from rules_engine.core.naming import capfirst
from rules_engine.core.words import _t

from . import gamereport, presenters, results, vocabulary
from .replays import final_pieces, hagmi_boards, legend, replay_drawing


def _position_words(system: str) -> PositionWords | None:
    return presenters.presentation(system).position_words


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
                "caption": _t("analysis", "The board of this position")}
    from rules_engine.replay import table_of

    events = result.get("table_events") or []
    game = {"system": system, "table": table_of(system, events), "events": events}
    drawing = replay_drawing(game, cards, names)
    if drawing["table"].get("name"):
        drawing["table"]["name"] = gamereport.table_name(system, drawing["table"]["name"])
    frames = drawing["frames"]
    final = final_pieces(drawing)
    drawn = {piece["id"] for piece in final}
    shown = {**drawing, "pieces": [piece for piece in drawing["pieces"] if piece["id"] in drawn]}
    notes = _side_notes(system, position, names)
    return {"kind": "table", "drawing": drawing, "final": final,
            "gates": frames[-1]["gates"] if frames else [], "attacks": [], "legend": legend(shown),
            "caption": _t("analysis", "The table of this position"), "sides": notes}


def _side_notes(system: str, position: Mapping[str, Any], names: gamereport.Namer) -> list[dict[str, Any]]:
    """Beside the table, what each side holds off it, as the game says (its positionwords.py `side_notes`: Warcaster
    victory points, arc pool, cyphers, units in reserve; MWDA the points destroyed), under the side's name."""
    words = _position_words(system)
    notes = words.side_notes(position, names) if words is not None else []
    return [{"side": note.side, "title": _side(names, note.side), "lines": list(note.lines)}
            for note in notes if note.lines]


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
        return _t("analysis", "You")
    if player == 1 and names is not None and names.coop:
        return _t("analysis", "The beasts")
    return _t("analysis", "The opponent")


def decision_words(system: str, position: Mapping[str, Any], names: gamereport.Namer | None = None
                   ) -> dict[str, str]:
    """{"heading": "Round 3 · Turn 5", "words": "You to play: give an order (2 orders left this turn)"}: the game
    reads its position's turn and phase and words the phase (its positionwords.py `decision`)."""
    words = _position_words(system)
    found = (words or PositionWords()).decision(position)
    turn, round_ = found.turn, found.round
    if isinstance(round_, int) and isinstance(turn, int):
        heading = _t("analysis", "Round %(round)s · Turn %(turn)s", round=round_, turn=turn)
    elif isinstance(round_, int):
        heading = _t("analysis", "Round %(round)s", round=round_)
    elif isinstance(turn, int):
        heading = _t("analysis", "Turn %(turn)s", turn=turn)
    else:
        heading = ""
    if found.over or not found.what:
        text = found.what
    else:
        text = _t("analysis", "%(who)s to play: %(what)s", who=_side(names, found.player), what=found.what)
    if found.note:
        text += " " + found.note
    return {"heading": heading, "words": text}


# ---- actions in words -------------------------------------------------------------------------------------------


def action_words(system: str, action: Any, names: gamereport.Namer, position: Mapping[str, Any],
                 result: Mapping[str, Any] | None = None) -> str:
    """A legal action (its record as a list: kind first) in words, as the game says it (its positionwords.py
    `action`): "Attack the opponent with Hound 2"; an action the game has no words for goes by its kind."""
    if not isinstance(action, list) or not action or not isinstance(action[0], str):
        return _t("analysis action", "an action")
    kind, fields = action[0], action[1:]
    words = _position_words(system)
    if words is not None:
        try:
            text = words.action(kind, fields, names, position, result or {})
        except (TypeError, ValueError, IndexError, KeyError):
            text = None
        if text:
            return capfirst(text)
    return _t("analysis action", "Action %(kind)s", kind=vocabulary.humanise(kind))
