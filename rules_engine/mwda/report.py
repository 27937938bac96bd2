"""MechWarrior: Dark Age's replay report: each event its engine logs (docs/engine-mwda.md) as a sentence in the
reader's language (rules_engine/core/words.py), naming units and sides through the report's Namer
(rules_engine/core/naming.py): "Hound 1 shot at the opponent's Tartan: attack 9 + dice 6+1+2, 18 in all, against
defense 17, a hit for 2 damage (4 of 6 clicks left).". builder/web/gamereport.py groups the events by turn and asks
`REPORT` (the registry's `Presentation.report`) for the words: `SENTENCES` (one function per event kind; None for an
event the reader does not need), `SILENT`, `together` (a hit with its damage and the kill: one sentence),
`name_pieces` (the units by their deploy events) and `table_name` (the terrain layout). English sentences are in
the past tense."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules_engine.core.gamewords import ReportWords, Sentence
from rules_engine.core.naming import Event, Namer, game_over, number, numbered
from rules_engine.core.words import _t, humanise, language, word

from .vocabulary import WORDS

__all__ = ["SENTENCES", "SILENT", "together", "name_pieces", "table_name", "REPORT"]


def table_name(name: Any) -> str:
    """An MWDA terrain layout (rules_engine/mwda/geometry.py LAYOUTS) in words."""
    return {
        "crossroads": _t("replay", "Crossroads"), "river-woods": _t("replay", "River and woods"),
        "ruined-town": _t("replay", "Ruined town"), "open-plain": _t("replay", "Open plain"),
    }.get(name, humanise(str(name or "")))


def _m_setup(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    table = data.get("table") or {}
    text = _t("replay", "The battle was set on the %(table)s table (%(size)s″ square); %(who)s went first.",
              table=table_name(table.get("name")), size=number(table.get("size") or 36),
              who=n.subject(data.get("first")))
    if data.get("max_rounds"):
        text += _t("replay", " The game lasts at most %(rounds)s rounds.", rounds=data["max_rounds"])
    return text


def _m_deploy(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    kind = word(WORDS["kind"], data.get("unit_kind"))
    return _t("replay", "%(who)s deployed %(unit)s (%(kind)s, %(points)s points, %(clicks)s clicks).",
              who=n.subject(e["player"]), unit=n.pieces.get(data.get("unit"), (0, n.card(data.get("code"))))[1],
              kind=kind.lower() if language() == "en" else kind, points=data.get("points"), clicks=data.get("clicks"))


def _m_move(n: Namer, e: Mapping[str, Any]) -> str | None:
    data = e["data"]
    unit = n.piece(data.get("unit"))
    if data.get("blocked"):
        return _t("replay", "%(unit)s could not move (the way was blocked).", unit=unit)
    length = number(data.get("length") or 0)
    if data.get("order") == "charge":
        return _t("replay", "%(unit)s charged %(length)s″.", unit=unit, length=length)
    if data.get("order") == "dfa":
        return _t("replay", "%(unit)s jumped %(length)s″ for a death from above.", unit=unit, length=length)
    if data.get("run"):
        return _t("replay", "%(unit)s ran %(length)s″.", unit=unit, length=length)
    return _t("replay", "%(unit)s moved %(length)s″.", unit=unit, length=length)


def _m_attack_roll(n: Namer, e: Mapping[str, Any]) -> str:
    """An attack and its roll, without the result: "X shot at Y: attack 9 + dice 6+1+2, 18 in all, against …"."""
    data = e["data"]
    unit, target = n.piece(data.get("unit")), n.piece(data.get("target"))
    kind = data.get("attack_kind")
    if kind == "close":
        text = _t("replay", "%(unit)s attacked %(target)s in close combat", unit=unit, target=target)
    elif kind == "charge":
        text = _t("replay", "%(unit)s rammed %(target)s at the end of its charge", unit=unit, target=target)
    elif kind == "dfa":
        text = _t("replay", "%(unit)s came down on %(target)s from above", unit=unit, target=target)
    elif data.get("weapon") == "secondary":
        text = _t("replay", "%(unit)s shot at %(target)s with its secondary weapon", unit=unit, target=target)
    else:
        text = _t("replay", "%(unit)s shot at %(target)s", unit=unit, target=target)
    roll = [int(d) for d in data.get("roll") or []]
    return text + _t("replay", ": attack %(attack)s + dice %(dice)s, %(total)s in all, against defense %(defense)s",
                     attack=data.get("attack"), dice="+".join(str(d) for d in roll),
                     total=(data.get("attack") or 0) + sum(roll), defense=data.get("defense"))


def _m_attack(n: Namer, e: Mapping[str, Any]) -> str:
    if e["data"].get("hit"):
        return _m_attack_roll(n, e) + _t("replay", ", a hit for %(damage)s damage.", damage=e["data"].get("damage"))
    return _m_attack_roll(n, e) + _t("replay", ", a miss.")


def _m_damage(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    unit = n.piece(data.get("unit"))
    left = max(0, (data.get("clicks") or 0) - (data.get("click") or 0))
    values = {"unit": unit, "amount": data.get("amount"), "left": left, "clicks": data.get("clicks")}
    if data.get("reason") == "push":
        return _t("replay",
                  "%(unit)s took %(amount)s damage from pushing (%(left)s of %(clicks)s clicks left).", **values)
    if data.get("reason") == "dfa_miss":
        return _t("replay", "%(unit)s took %(amount)s damage from its missed death from above (%(left)s of %(clicks)s "
                  "clicks left).", **values)
    return _t("replay", "%(unit)s took %(amount)s damage (%(left)s of %(clicks)s clicks left).", **values)


def _m_game_over(n: Namer, e: Mapping[str, Any]) -> str:
    data = e["data"]
    points = data.get("points_destroyed") or [0, 0]
    text = game_over(n, data.get("winner"), data.get("reason"))
    return text + _t("replay", " After %(rounds)s rounds, you had destroyed %(mine)s points and lost %(theirs)s.",
                           rounds=data.get("rounds"), mine=points[0], theirs=points[1])


SENTENCES: dict[str, Sentence] = {
    "setup": _m_setup,
    "deploy": _m_deploy,
    "turn_start": lambda n, e: None,
    "turn_end": lambda n, e: None,
    "order": lambda n, e: None,  # the move, attack or vent that follows says what the order was
    "token": lambda n, e: None,
    "tokens_removed": lambda n, e: None,
    "push": lambda n, e: _t("replay",
                            "%(unit)s was pushed (an order two turns running).", unit=n.piece(e["data"].get("unit"))),
    "breakaway": lambda n, e: (
        _t("replay",
           "%(unit)s broke away (rolled %(roll)s).", unit=n.piece(e["data"].get("unit")), roll=e["data"].get("roll"))
        if e["data"].get("success") else
        _t("replay",
           "%(unit)s failed to break away (rolled %(roll)s) and stayed put.", unit=n.piece(e["data"].get("unit")),
           roll=e["data"].get("roll"))),
    "move": _m_move,
    "attack": _m_attack,
    "damage": _m_damage,
    "heat": lambda n, e: _t("replay",
                            "%(unit)s gained %(change)s heat (heat %(heat)s).", unit=n.piece(e["data"].get("unit")),
                            change=e["data"].get("change"), heat=e["data"].get("heat")),
    "shutdown": lambda n, e: _t("replay", "%(unit)s overheated and shut down.", unit=n.piece(e["data"].get("unit"))),
    "vent": lambda n, e: _t("replay",
                            "%(unit)s vented %(change)s heat (heat %(heat)s).", unit=n.piece(e["data"].get("unit")),
                            change=abs(e["data"].get("change") or 0), heat=e["data"].get("heat")),
    "eliminated": lambda n, e: _t("replay", "%(unit)s was eliminated (%(points)s points).",
                                  unit=n.piece(e["data"].get("unit")), points=e["data"].get("points")),
    "game_over": _m_game_over,
}


# Kinds with no sentence: the headings say whose turn it is; tokens and orders show in what follows.
SILENT = frozenset({"turn_start", "turn_end", "order", "token", "tokens_removed"})


def name_pieces(n: Namer, events: Sequence[Event]) -> None:
    """Each unit by its deploy event: its card's name, "Hound 1", "Hound 2" where a side has two."""
    n.pieces = numbered([(e["data"]["unit"], e["player"], n.card(e["data"].get("code")))
                         for e in events if e["kind"] == "deploy"])


def together(events: Sequence[Event], start: int, n: Namer) -> tuple[str, int] | None:
    """A hit with its damage, and the kill when it eliminates (M15, M16): "… a hit for 3 damage: Hound 1 was
    eliminated (26 points).", and how many events that says."""
    if start + 1 >= len(events):
        return None
    first, second = events[start], events[start + 1]
    third = events[start + 2] if start + 2 < len(events) else None
    a, b = first["data"], second["data"]
    if first["kind"] == "attack" and a.get("hit") and second["kind"] == "damage" \
            and b.get("unit") == a.get("target") and b.get("source") == a.get("unit"):
        if third is not None and third["kind"] == "eliminated" and third["data"].get("unit") == a.get("target"):
            return _m_attack_roll(n, first) + _t("replay", ", a hit for %(damage)s damage: %(target)s was eliminated "
                                                 "(%(points)s points).", damage=b.get("amount"),
                                                 target=n.piece(a.get("target")),
                                                 points=third["data"].get("points")), 3
        left = max(0, (b.get("clicks") or 0) - (b.get("click") or 0))
        return _m_attack_roll(n, first) + _t("replay", ", a hit for %(damage)s damage (%(left)s of %(clicks)s "
                                                       "clicks left).",
                                             damage=b.get("amount"), left=left, clicks=b.get("clicks")), 2
    return None


REPORT = ReportWords(sentences=SENTENCES, silent=SILENT, together=together, name_pieces=name_pieces,
                     table_name=table_name)
