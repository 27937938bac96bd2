"""A replayed game as a game report: every event of the engines' logs as a sentence in the page's language.

`report(system, game, cards)` groups the events (rules_engine.replay) by turn under a heading in words
("ターン3（あなた）", "Round 2 · Turn 3 (you)") and writes each event as a sentence with the cards' and units' names:
"Guren-maru attacked the opponent's Hound.", 「相手の鋼狼突撃歩兵 1が3ダメージを受けた（残り3/6クリック）。」.
The sides are "you" (the list, player 0) and "the opponent" (player 1; "the beasts" in a HAGMI co-op game). A unit
of the side whose turn it is goes by its name alone, the other side's with its owner ("the opponent's Hound"):
the names come from one `Namer` (rules_engine/core/naming.py).

The sentences are the game's own (its rules_engine/<game>/report.py, the registry's `Presentation.report`:
rules_engine/core/gamewords.py `ReportWords`): one function per event kind the engine logs (docs/engine-*.md), the
kinds it leaves unsaid, the runs of events it says as one sentence. A kind the game does not word yet still gets a
worded sentence here (`_unknown`), never the engine's key=value text, and so does every event of a game that
declares no report.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules_engine.core.gamewords import ReportWords
from rules_engine.core.naming import Namer, capfirst, game_over, join
from rules_engine.core.outcome import END_REASONS
from rules_engine.core.words import _t

from . import vocabulary
from .presenters import presentation

__all__ = ["table_name", "Namer", "namer_for", "report", "sentence", "heading", "outcome", "piece_labels",
           "known_kinds", "silent_kinds"]

_NO_WORDS = ReportWords(sentences={})


def _words(system: str) -> ReportWords:
    return presentation(system).report or _NO_WORDS


def known_kinds(system: str) -> frozenset[str]:
    """The event kinds the game has a sentence (or a deliberate silence) for."""
    return frozenset(_words(system).sentences)


def silent_kinds(system: str) -> frozenset[str]:
    """The event kinds the game's report never says (the headings say whose turn it is, ...)."""
    return _words(system).silent


def table_name(system: str, name: Any) -> str:
    """A table layout of the game (MWDA's terrain layouts) in words; a layout the game does not name, humanised."""
    words = _words(system).table_name
    return words(name) if words is not None else vocabulary.humanise(str(name or ""))


# --- names --------------------------------------------------------------------------------------------------


def namer_for(system: str, game: Mapping[str, Any], cards: Mapping[str, Any], *, coop: bool = False) -> Namer:
    """The names of a game: its cards, and the pieces on its table as the game names them from its log."""
    namer = Namer(system=system, cards=cards, coop=coop, codes=game.get("codes") or {})
    _words(system).name_pieces(namer, game.get("events") or [])
    return namer


def piece_labels(names: Mapping[int, tuple[int, str]]) -> dict[int, str]:
    """A short label for each token (at most 4 characters): initials of an English name, the trailing katakana
    name or the first characters of a Japanese one, with the number of "Hound 2" kept; labels that would be the
    same get numbers."""
    def short(name: str) -> str:
        base, number = name, ""
        head, _, tail = name.rpartition(" ")
        if head and tail.isdigit():
            base, number = head, tail
        words = [w for w in base.replace("-", " ").split() if w]
        if words and all(w.isascii() for w in words):
            letters = "".join(w[0] for w in words if w[0].isalnum()).upper()
            letters = letters[:3] if len(letters) > 1 else base[:3]
        else:  # a Japanese name: its trailing katakana (the unit's own name: 重戦車ケアン -> ケアン), or its start
            katakana = re.search(r"[\u30a0-\u30ff]{2,}$", base.split()[-1] if base.split() else base)
            name = katakana.group(0).strip("・ー").split("・")[0] if katakana else ""  # アヤ・クロガネ -> アヤ
            letters = name[:4 - len(number) if number else 4] if len(name) >= 2 else base.replace(" ", "")[:2]
        return (letters + number)[:4] if number else letters[:4]

    labels = {pid: short(name) for pid, (_side, name) in names.items()}
    clashes = Counter(labels.values())
    seen: Counter = Counter()
    for pid in sorted(labels):
        label = labels[pid]
        if clashes[label] > 1:
            seen[label] += 1
            labels[pid] = f"{label[:3]}{seen[label]}"
    return labels


# --- sentences ----------------------------------------------------------------------------------------------


MAX_NAMED_CARDS = 3  # the cards an unworded event names, at most


def _unknown(n: Namer, e: Mapping[str, Any]) -> str:
    """An event the game has no sentence for, in plain words: its kind humanised ("orbital strike") and the cards
    its data names by their names ("play: Lance Knight"), never the kind's or a value's slug nor key=value text. A
    game's last event `game_over` with its `winner` and `reason` (rules_engine.core.outcome.END_REASONS) says who
    won and how, as the games' own reports do."""
    data = e.get("data") if isinstance(e.get("data"), Mapping) else {}
    if e.get("kind") == "game_over" and "winner" in data and data.get("reason") in END_REASONS:
        return game_over(n, data.get("winner"), data.get("reason"))
    what = vocabulary.humanise(str(e.get("kind") or ""))
    codes = list(dict.fromkeys(value for value in data.values() if isinstance(value, str) and value in n.cards))
    if codes:
        what = _t("replay", "%(kind)s: %(cards)s", kind=what,
                  cards=join([n.card(code) for code in codes[:MAX_NAMED_CARDS]]))
    if e.get("player") is None:
        return _t("replay", "Something the report cannot put in words yet happened (%(what)s).", what=what)
    return _t("replay", "%(who)s did something the report cannot put in words yet (%(what)s).",
              who=n.subject(e["player"]), what=what)


def sentence(system: str, event: Mapping[str, Any], namer: Namer) -> str | None:
    """One event in words, or None for an event the reader does not need. A turn's start, which the heading says,
    is never a sentence of its own unless the game words it."""
    sentences = _words(system).sentences
    kind = str(event.get("kind"))
    if kind == "turn_start" and kind not in sentences:
        return None
    write = sentences.get(kind, _unknown)
    text = write(namer, event)
    return capfirst(text) if text else None


def _merged(system: str, events: list[Mapping[str, Any]], namer: Namer) -> list[str]:
    """The sentences of one turn; where the game says a run of events as one sentence (HAGMI's draws from one deck,
    a Warcaster player's recalls, an MWDA hit with its damage and the kill: its `together`), that sentence."""
    words = _words(system)
    lines: list[str] = []
    i = 0
    while i < len(events):
        paired = words.together(events, i, namer)
        if paired is not None:
            text, used = paired
            lines.append(capfirst(text))
            i += max(1, used)
            continue
        said = sentence(system, events[i], namer)
        if said:
            lines.append(said)
        i += 1
    return lines


def heading(system: str, turn: int, player: Any, round_: Any, namer: Namer) -> str:
    if turn == 0:
        return _t("replay", "Setup")
    if player is None:
        return _t("replay", "Turn %(turn)s", turn=turn)
    who = namer.subject(player)
    if round_:
        return _t("replay", "Round %(round)s · Turn %(turn)s (%(who)s)", round=round_, turn=turn, who=who)
    return _t("replay", "Turn %(turn)s (%(who)s)", turn=turn, who=who)


def report(system: str, game: Mapping[str, Any], cards: Mapping[str, Any], *, coop: bool = False,
           namer: Namer | None = None) -> list[dict[str, Any]]:
    """Per turn: {"turn", "player", "heading", "lines"}: the turn's events as sentences."""
    namer = namer or namer_for(system, game, cards, coop=coop)
    groups: list[tuple[int, list[Mapping[str, Any]]]] = []
    for event in game.get("events") or []:
        if not groups or groups[-1][0] != event["turn"]:
            groups.append((event["turn"], []))
        groups[-1][1].append(event)
    turns = []
    for turn, events in groups:
        start = next((e for e in events if e["kind"] == "turn_start"), None)
        player = start["player"] if start else None
        round_ = (start["data"].get("round") if start and presentation(system).has_rounds else None)
        namer.active = player
        turns.append({"turn": turn, "player": player, "heading": heading(system, turn, player, round_, namer),
                      "lines": _merged(system, events, namer)})
    namer.active = None
    return turns


def outcome(system: str, game: Mapping[str, Any], *, coop: bool = False) -> dict[str, str]:
    """{"result": win/loss/draw for the list, "words": who won, "reason": how the game ended, in words}."""
    result = game.get("outcome") or "draw"
    if result == "win":
        words = _t("replay", "You won")
    elif result == "loss":
        words = _t("replay", "The beasts won") if coop else _t("replay", "The opponent won")
    else:
        words = _t("replay", "A draw")
    reason = (game.get("record") or {}).get("ended_by")
    return {"result": result, "words": words,
            "reason": vocabulary.label(system, "end_reason", reason) if reason else ""}
